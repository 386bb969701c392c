"""Explains unsatisfiable puzzles of each kind with `cpsolve explain` and reports how the
explanations end, how large their steps are and how long they take (see bench/unsat.sh).

Every puzzle is drawn with a fixed seed and checked unsatisfiable by solving it first
(`cpsolve --format json`); a puzzle that turns out satisfiable is skipped, and one whose
explanation does not end in "no solution" is counted as a failure and listed.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import time

SEED = 37


def run(binary, args, stdin=None):
    t = time.perf_counter()
    r = subprocess.run([binary] + args, input=stdin, capture_output=True, text=True)
    return r, time.perf_counter() - t


def sudokus(root, n, rng):
    """Held-out Sudokus with one wrong extra given that clashes with no given directly."""
    lines = [l.split() for l in open(os.path.join(root, 'bench', 'grade', 'heldout.txt')) if not l.startswith('#')]
    rng.shuffle(lines)
    head = open(os.path.join(root, 'tests', 'corpus', 'model', 'sudoku.puz')).read().split('given x =')[0]
    for parts in lines[:n]:
        p = parts[1]
        g = [list(p[i * 9:i * 9 + 9]) for i in range(9)]
        base = '\n'.join(' '.join('.' if ch == '0' else ch for ch in row) for row in g)
        empty = [(r, c) for r in range(9) for c in range(9) if g[r][c] == '0']
        rng.shuffle(empty)
        for r, c in empty:
            peers = {g[r][k] for k in range(9)} | {g[k][c] for k in range(9)} | {
                g[3 * (r // 3) + i][3 * (c // 3) + j] for i in range(3) for j in range(3)}
            free = [v for v in '123456789' if v not in peers]
            if len(free) >= 2:
                # One of them is the solution's value; the puzzle is kept only if the
                # extra given makes it unsatisfiable (checked by the caller).
                g[r][c] = rng.choice(free)
                break
        grid = '\n'.join(' '.join('.' if ch == '0' else ch for ch in row) for row in g)
        yield (f"{parts[2]} {parts[3]}", ['-'], head + 'given x =\n' + grid + '\nsolve all\n',
               head + 'given x =\n' + base + '\nsolve all\n')


def countings(n, rng):
    """r×c grids in 1..9 whose row sums and column sums add up to different totals."""
    shapes = [(2, 2), (2, 3), (3, 2), (3, 3)]
    for k in range(n):
        r, c = shapes[k % len(shapes)]
        rows = [rng.randint(c, 9 * c) for _ in range(r)]
        cols = [rng.randint(r, 9 * r) for _ in range(c)]
        if sum(rows) == sum(cols):
            cols[0] += 1 if cols[0] < 9 * r else -1
        text = f"var x[1..{r}, 1..{c}] in 1..9\n"
        text += ''.join(f"sum([x[{i}, j] | j in 1..{c}]) == {rows[i - 1]}\n" for i in range(1, r + 1))
        text += ''.join(f"sum([x[i, {j}] | i in 1..{r}]) == {cols[j - 1]}\n" for j in range(1, c + 1))
        yield f"{r}x{c} rows {rows} columns {cols}", ['-'], text + 'solve all\n'


def cryptarithms(n, rng):
    """WORD+WORD=WORD over 4 to 8 letters (at most ten)."""
    for _ in range(n * 20):
        letters = rng.sample('ABCDEFGHIJ', rng.randint(4, 8))
        word = lambda k: ''.join(rng.choice(letters) for _ in range(k))
        a, b = word(rng.randint(2, 5)), word(rng.randint(2, 5))
        c = word(max(len(a), len(b)) + rng.randint(0, 1))
        yield f"{a}+{b}={c}", ['-e', f'cryptarithm {a}+{b}={c}'], None


def minesweepers(n, rng):
    """Random layouts, some cells revealed, one revealed number off by one."""
    for _ in range(n * 20):
        h, w = rng.randint(4, 8), rng.randint(4, 9)
        cells = [(r, c) for r in range(h) for c in range(w)]
        mines = set(rng.sample(cells, rng.randint(3, h * w // 4)))
        count = lambda r, c: sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        grid = [['.'] * w for _ in range(h)]
        safe = [x for x in cells if x not in mines]
        for r, c in rng.sample(safe, int(len(safe) * rng.uniform(0.4, 0.8))):
            grid[r][c] = str(count(r, c))
        shown = [(r, c) for r, c in cells if grid[r][c] != '.']
        r, c = rng.choice(shown)
        v = int(grid[r][c]) + rng.choice([-1, 1])
        if not 0 <= v <= 8:
            continue
        grid[r][c] = str(v)
        text = f"minesweeper mines = {len(mines)}\n" + '\n'.join(' '.join(row) for row in grid) + '\n'
        yield f"{h}x{w}, {len(mines)} mines", ['-'], text


def cited(step):
    """The constraints a step asks a person to weigh at once: a case split told as a chain
    of small steps, the largest of them."""
    if step.get('chain'):
        return max(cited(s) for s in step['chain'])
    return len(step['constraints'])


def judge(kind, out):
    """(ended in no solution by steps, steps, largest step, search steps)."""
    d = json.loads(out)
    # Every kind, Minesweeper too, in the one shape: the steps, the last a contradiction.
    steps = d.get('steps', [])
    ended = d.get('ending') == 'no solution' and bool(steps) and steps[-1]['conclusion'].get('contradiction')
    largest = max((cited(s) for s in steps), default=0)
    searches = sum(s['reasoning'] == 'search' for s in steps)
    return bool(ended), len(steps), largest, searches


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--per-kind', type=int, default=100)
    args = ap.parse_args()
    binary = os.path.join(args.root, 'target', 'release', 'cpsolve')
    rng = random.Random(SEED)
    kinds = [
        ('sudoku', sudokus(args.root, args.per_kind * 3, rng)),
        ('counting', countings(args.per_kind, rng)),
        ('cryptarithm', cryptarithms(args.per_kind, rng)),
        ('minesweeper', minesweepers(args.per_kind, rng)),
    ]
    print(f"load: {os.getloadavg()[0]:.1f}")
    print('| kind | puzzles | ended by steps | no search step | largest step ≤ 6 | largest step ≤ 6 or the solvable puzzle\'s | largest step (max) | time median / max |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    failures = []
    for kind, puzzles in kinds:
        rows = []
        for name, cli, stdin, *base in puzzles:
            if len(rows) >= args.per_kind:
                break
            solved, _ = run(binary, ['--format', 'json'] + cli, stdin)
            try:
                if json.loads(solved.stdout).get('status') != 'unsatisfiable':
                    continue
            except json.JSONDecodeError:
                continue
            r, wall = run(binary, ['explain', '--format', 'json'] + cli, stdin)
            try:
                ended, steps, largest, searches = judge(kind, r.stdout)
            except (json.JSONDecodeError, KeyError) as e:
                ended, steps, largest, searches = False, 0, 0, 0
                failures.append((kind, name, f'unreadable output: {e}: {r.stderr[-200:]}'))
            if not ended:
                failures.append((kind, name, 'did not end in no solution by steps'))
            # A Sudoku's puzzle without the wrong given: its explanation's largest step is
            # what solving needs anyway.
            solvable = largest
            if base:
                b, _ = run(binary, ['explain', '--format', 'json'] + cli, base[0])
                solvable = max((cited(s) for s in json.loads(b.stdout).get('steps', [])), default=0)
            rows.append((ended, steps, largest, searches, wall, largest <= max(6, solvable)))
        if not rows:
            continue
        walls = [x[4] for x in rows]
        print(f"| {kind} | {len(rows)} | {sum(x[0] for x in rows)} | {sum(x[3] == 0 for x in rows)} | "
              f"{sum(x[2] <= 6 for x in rows)} | {sum(x[5] for x in rows)} | {max(x[2] for x in rows)} | "
              f"{statistics.median(walls):.2f} s / {max(walls):.2f} s |")
    for kind, name, why in failures:
        print(f"FAILED {kind} {name}: {why}")


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""`cpsolve explain` on the twenty Sudokus (called by bench/explain.sh; standard library only).

Each puzzle's runs are whole processes (spawn to exit), output captured; the first run's JSON
is checked and read. The binary is copied to bench/.scratch/explain/ first: target/ is shared
and may be rebuilt mid-run.
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import time

from benchlib import die, loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
SCRATCH = os.path.join(BENCH, '.scratch', 'explain')
GOAL_S = 2.0


def header(text, key):
    for line in text.splitlines():
        if line.startswith(key):
            return line[len(key):].strip()
    die(f'no {key!r} line')


def givens(text):
    lines = text.splitlines()
    at = next(i for i, l in enumerate(lines) if l.startswith('given x ='))
    return [[0 if c == '.' else int(c) for c in l.split()] for l in lines[at + 1:at + 10]]


def check(name, o, given, row1):
    if o.get('ending') != 'solved' or len(o.get('solutions', [])) != 1:
        die(f"{name}: ending {o.get('ending')!r}, {len(o.get('solutions', []))} solutions")
    s = [[o['solutions'][0][f'x[{r},{c}]'] for c in range(1, 10)] for r in range(1, 10)]
    units = [[(r, c) for c in range(9)] for r in range(9)] + [[(r, c) for r in range(9)] for c in range(9)]
    units += [[(b // 3 * 3 + k // 3, b % 3 * 3 + k % 3) for k in range(9)] for b in range(9)]
    if any(sorted(s[r][c] for r, c in u) != list(range(1, 10)) for u in units):
        die(f'{name}: not a Sudoku solution')
    if any(given[r][c] and given[r][c] != s[r][c] for r in range(9) for c in range(9)):
        die(f'{name}: a given changed')
    if s[0] != row1:
        die(f"{name}: row 1 {s[0]}, the header says {row1}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--only', default='')
    args = ap.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    exe = os.path.join(SCRATCH, 'cpsolve')
    shutil.copy2(os.path.join(args.root, 'target', 'release', 'cpsolve'), exe)
    files = sorted(f for f in glob.glob(os.path.join(BENCH, 'explain', 'sudoku', '*.puz'))
                   if args.only in os.path.basename(f))
    if not files:
        die('no puzzle matches')
    print(f'== cpsolve explain --format json, {len(files)} Sudokus, N = {args.runs} '
          f'(load {loadavg()}; nproc {os.cpu_count()})')
    rows = []
    for f in files:
        name = os.path.basename(f)[:-4]
        text = open(f).read()
        given = givens(text)
        row1 = [int(d) for d in header(text, '# solution row 1:').split()]
        walls, out = [], None
        for _ in range(args.runs):
            t = time.perf_counter()
            p = subprocess.run([exe, 'explain', '--format', 'json', f], cwd=args.root,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            walls.append(time.perf_counter() - t)
            if p.returncode != 0:
                die(f'{name}: exit {p.returncode}: {p.stderr.strip()[:300]}')
            out = out or p.stdout
        o = json.loads(out)
        check(name, o, given, row1)
        steps = o['steps']
        splits = [s['step'] for s in steps if s['reasoning'] != 'direct']
        most_c = max(steps, key=lambda s: len(s['constraints']))
        most_f = max(steps, key=lambda s: len(s['facts']))
        med = statistics.median(walls)
        rows.append((name, header(text, '# level:'), sum(v != 0 for r in given for v in r), len(steps),
                     len(splits), f"{len(most_c['constraints'])} (#{most_c['step']})",
                     f"{len(most_f['facts'])} (#{most_f['step']})", med, min(walls)))
        print(f'  {name}: {len(steps)} steps, {len(splits)} case splits, {med:.2f} s '
              f'(load {loadavg().split()[0]})', flush=True)
    print()
    print('| Sudoku | level | givens | steps | case splits | most constraints (step) '
          '| most facts (step) | median wall s | min s | <= 2 s |')
    print('|---|---|---:|---:|---:|---:|---:|---:|---:|---|')
    for name, level, g, n, cs, mc, mf, med, low in rows:
        print(f"| {name} | {level} | {g} | {n} | {cs} | {mc} | {mf} | {med:.2f} | {low:.2f} | "
              f"{'yes' if med <= GOAL_S else '**no**'} |")
    over = [r[0] for r in rows if r[7] > GOAL_S]
    easy_split = [r[0] for r in rows if r[1] == 'easy' and r[4]]
    print()
    print(f"over {GOAL_S:g} s: {', '.join(over) if over else 'none'}; "
          f"easy ones with a case split: {', '.join(easy_split) if easy_split else 'none'}")
    print(f'(load {loadavg()}; nproc {os.cpu_count()})')


if __name__ == '__main__':
    main()

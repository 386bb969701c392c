#!/usr/bin/env python3
"""Grades the Sudokus of bench/grade/ with `cpsolve explain` and compares the grade with the
published Sukaku Explainer rating (called by bench/grade.sh; standard library only).

For each puzzle of tuning.txt and heldout.txt: one `cpsolve explain --format json -` process
(the model on standard input, timed spawn to exit). The answer is checked first: exit 0, ending
"solved", a grade, one solution that is a Sudoku solution of the givens; a failed check stops
the benchmark (exit 1). Then, per set: Spearman's rank correlation between the grade and the
rating (puzzles with an exact rating; the medium puzzles, rated "1.5-2.3", only in the band
table), the grades per rating band, the time per puzzle (median, max), and the largest
disagreements (by rank). Writes results.tsv (one line per puzzle) here and the scatter plot
notes/grade-scatter.svg.

With --keep DIR, each answer is also written to DIR/<set>/<source>.json (file:line as
file_line), for measuring other readings of the explanations without explaining again.

usage: grade_bench.py --root ROOT [--only tuning|heldout] [--limit N] [--keep DIR]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import time

from rank import ranks, spearman
from svg_scatter import scatter

HERE = os.path.dirname(os.path.abspath(__file__))
GOAL_S = 2.0
HEAD = """var x[1..9, 1..9] in 1..9
forall i in 1..9: alldifferent([x[i, j] | j in 1..9])
forall j in 1..9: alldifferent([x[i, j] | i in 1..9])
forall b in 0..2, c in 0..2: alldifferent([x[3*b + i, 3*c + j] | i in 1..3, j in 1..3])
given x =
"""


def die(message):
    raise SystemExit(f'grade_bench: FAILED: {message}')


def model(digits):
    rows = [' '.join('.' if ch == '0' else ch for ch in digits[9 * r:9 * r + 9]) for r in range(9)]
    return HEAD + ''.join(f'  {row}\n' for row in rows)


def check(line, out, code, digits):
    if code != 0:
        die(f'{line}: exit {code}')
    o = json.loads(out)
    if o.get('ending') != 'solved' or 'grade' not in o or len(o.get('solutions', [])) != 1:
        die(f"{line}: ending {o.get('ending')!r}, grade {o.get('grade')!r}")
    s = [[o['solutions'][0][f'x[{r},{c}]'] for c in range(1, 10)] for r in range(1, 10)]
    units = [s[r] for r in range(9)] + [[s[r][c] for r in range(9)] for c in range(9)]
    units += [[s[3 * b + i][3 * d + j] for i in range(3) for j in range(3)] for b in range(3) for d in range(3)]
    if any(sorted(u) != list(range(1, 10)) for u in units):
        die(f'{line}: the solution is not a Sudoku')
    if any(ch != '0' and int(ch) != s[k // 9][k % 9] for k, ch in enumerate(digits)):
        die(f'{line}: the solution does not keep the givens')
    return o


def band(rating):
    low = float(rating.split('-')[0])
    for top, name in ((1.5, '1.2 (easy)'), (2.5, '1.5-2.3 (medium)'), (3.8, '2.5-3.6'), (5.0, '3.8-4.8'),
                      (6.5, '5.0-6.4'), (8.0, '6.6-7.9'), (9.0, '8.0-8.9')):
        if low < top:
            return name
    return '9.0-9.3'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--only', choices=['tuning', 'heldout'])
    ap.add_argument('--limit', type=int, default=0, help='at most N puzzles of each set (0: all)')
    ap.add_argument('--keep', help='write each JSON answer under this directory')
    args = ap.parse_args()
    scratch = os.path.join(HERE, '..', '.scratch', 'grade')
    os.makedirs(scratch, exist_ok=True)
    binary = os.path.join(scratch, 'cpsolve')
    shutil.copy2(os.path.join(args.root, 'target', 'release', 'cpsolve'), binary)
    rows = []
    for name in ('tuning', 'heldout'):
        if args.only and args.only != name:
            continue
        with open(os.path.join(HERE, f'{name}.txt')) as f:
            lines = [l.split() for l in f if l.strip() and not l.startswith('#')]
        if args.limit:
            lines = lines[:args.limit]
        for ident, digits, rating, source in lines:
            start = time.perf_counter()
            p = subprocess.run([binary, 'explain', '--format', 'json', '-'], input=model(digits),
                               capture_output=True, text=True)
            wall = time.perf_counter() - start
            o = check(source, p.stdout, p.returncode, digits)
            if args.keep:
                os.makedirs(os.path.join(args.keep, name), exist_ok=True)
                with open(os.path.join(args.keep, name, source.replace(':', '_') + '.json'), 'w') as f:
                    f.write(p.stdout)
            splits = sum(1 for s in o['steps'] if s['reasoning'] != 'direct')
            rows.append(dict(set=name, id=ident, digits=digits, rating=rating, source=source, grade=o['grade'],
                             steps=len(o['steps']), splits=splits, wall=wall))
    with open(os.path.join(HERE, 'results.tsv'), 'w') as f:
        f.write('set\tsource\tid\tpuzzle\trating\tgrade\tsteps\tsplits\twall_s\n')
        for r in rows:
            f.write(f"{r['set']}\t{r['source']}\t{r['id']}\t{r['digits']}\t{r['rating']}\t{r['grade']}\t"
                    f"{r['steps']}\t{r['splits']}\t{r['wall']:.3f}\n")
    load = os.getloadavg()
    print(f'load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}')
    for name in ('tuning', 'heldout'):
        rs = [r for r in rows if r['set'] == name]
        if not rs:
            continue
        rated = [r for r in rs if '-' not in r['rating']]
        rho = spearman([r['grade'] for r in rated], [float(r['rating']) for r in rated])
        walls = [r['wall'] for r in rs]
        print(f"\n== {name}: {len(rs)} puzzles, {len(rated)} with an exact rating")
        print(f"Spearman rho (grade, rating): {rho:.3f}")
        print(f"time per puzzle: median {statistics.median(walls):.2f} s, max {max(walls):.2f} s, "
              f"over {GOAL_S:.0f} s: {sum(w > GOAL_S for w in walls)}")
        print('| rating band | puzzles | grade: min | median | max |')
        print('|---|---:|---:|---:|---:|')
        bands = {}
        for r in rs:
            bands.setdefault(band(r['rating']), []).append(r['grade'])
        for b, gs in sorted(bands.items(), key=lambda kv: float(kv[0].split('-')[0].split(' ')[0])):
            print(f'| {b} | {len(gs)} | {min(gs):.1f} | {statistics.median(gs):.1f} | {max(gs):.1f} |')
        rg, rr = ranks([r['grade'] for r in rated]), ranks([float(r['rating']) for r in rated])
        worst = sorted(range(len(rated)), key=lambda i: -abs(rg[i] - rr[i]))[:5]
        print('largest disagreements (rank of grade vs rank of rating, of', len(rated), '):')
        for i in worst:
            r = rated[i]
            print(f"  {r['source']} {r['digits']} rating {r['rating']} grade {r['grade']} "
                  f"(ranks {rg[i]:.0f} / {rr[i]:.0f}; {r['steps']} steps, {r['splits']} splits)")
    svg = os.path.join(HERE, '..', '..', 'notes', 'grade-scatter.svg')
    with open(svg, 'w') as f:
        f.write(scatter([(float(r['rating']), r['grade'], r['set']) for r in rows if '-' not in r['rating']]))
    print(f'\nscatter plot: notes/grade-scatter.svg')


main()

#!/usr/bin/env python3
"""Spearman's rho of the grade against the published rating, over all rated puzzles and within
bands of rating, per set of a results.tsv (bench/grade.sh writes one); standard library only.

A rank correlation over the whole scale is carried by the ends (an easy puzzle against a
nested chain); within a band it says whether the grade orders puzzles of nearly the same
difficulty. The bands: 5.4-9.1 (issue 51's hard band: chains), its lower and upper parts
(5.4-7.3, 7.0-9.1), and 3.8-6.9 (fish, wings and short chains, where the grade was a coin).

The sets draw the same number of puzzles per rating value; another bank need not. With
--draws K, rho is also taken over K random subsamples of N puzzles (--size, 43 by default)
of each set's 5.4-9.1 band, drawn uniformly (every puzzle alike) and, with --weights FILE
(lines "rating count", e.g. a bank's sizes per rating), with each rating drawn in proportion
to its count: the distribution (5th, 50th, 95th percentile) says how far one small sample of
a band can fall from the whole.

usage: bands.py [TSV] [--draws K] [--size N] [--seed S] [--weights FILE]
"""
import argparse
import os
import random

from rank import spearman

HERE = os.path.dirname(os.path.abspath(__file__))
BANDS = [('all rated', 0.0, 99.0), ('5.4-9.1', 5.4, 9.1), ('5.4-7.3', 5.4, 7.3), ('7.0-9.1', 7.0, 9.1),
         ('3.8-6.9', 3.8, 6.9)]
HARD = (5.4, 9.1)


def read(path):
    with open(path) as f:
        head = f.readline().rstrip('\n').split('\t')
        rows = [dict(zip(head, line.rstrip('\n').split('\t'))) for line in f if line.strip()]
    return [r for r in rows if '-' not in r['rating']]


def rho(rows):
    return spearman([float(r['grade']) for r in rows], [float(r['rating']) for r in rows])


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def draw(rows, size, rng, weights):
    if not weights:
        return rng.sample(rows, size)
    by = {}
    for r in rows:
        by.setdefault(r['rating'], []).append(r)
    keys = [k for k in by if weights.get(k, 0) > 0]
    picked, left = [], {k: list(by[k]) for k in keys}
    while len(picked) < size and any(left.values()):
        live = [k for k in keys if left[k]]
        k = rng.choices(live, [weights[k] for k in live])[0]
        picked.append(left[k].pop(rng.randrange(len(left[k]))))
    return picked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('tsv', nargs='?', default=os.path.join(HERE, 'results.tsv'))
    ap.add_argument('--draws', type=int, default=0)
    ap.add_argument('--size', type=int, default=43)
    ap.add_argument('--seed', type=int, default=51)
    ap.add_argument('--weights')
    args = ap.parse_args()
    rows = read(args.tsv)
    weights = {}
    if args.weights:
        with open(args.weights) as f:
            weights = {a: float(b) for a, b in (l.split() for l in f if l.strip() and not l.startswith('#'))}
    print('| set | band | puzzles | rho |')
    print('|---|---|---:|---:|')
    sets = sorted({r['set'] for r in rows})
    for name in sets:
        for band, low, high in BANDS:
            rs = [r for r in rows if r['set'] == name and low <= float(r['rating']) <= high]
            print(f'| {name} | {band} | {len(rs)} | {rho(rs):.3f} |')
    if args.draws:
        print(f'\nrho within {HARD[0]}-{HARD[1]} over {args.draws} random draws of {args.size} (seed {args.seed}):')
        print('| set | draw | 5th pct | median | 95th pct | share >= 0.8 |')
        print('|---|---|---:|---:|---:|---:|')
        for name in sets:
            hard = [r for r in rows if r['set'] == name and HARD[0] <= float(r['rating']) <= HARD[1]]
            for kind, w in (('uniform', {}), ('weighted', weights)):
                if kind == 'weighted' and not w:
                    continue
                rng = random.Random(args.seed)
                rs = [rho(draw(hard, args.size, rng, w)) for _ in range(args.draws)]
                print(f'| {name} | {kind} | {percentile(rs, 5):.3f} | {percentile(rs, 50):.3f} | '
                      f'{percentile(rs, 95):.3f} | {sum(x >= 0.8 for x in rs) / len(rs):.2f} |')


main()

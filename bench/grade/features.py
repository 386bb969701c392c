#!/usr/bin/env python3
"""Other readings of the kept explanations, ranked against the published rating: which
feature of the steps could order the puzzles the grade does not (standard library only).

`bench/grade.sh --keep DIR` writes each puzzle's JSON answer under DIR; this reads them
back with the ratings of tuning.txt and heldout.txt, and prints, per set and band of
rating, Spearman's rho of the printed grade, of single features of the steps, and of the
grade's score with one feature added (the variants tried for issue 51). The score is
recovered from the printed grade through the map's points (models/src/explain/grade.rs),
so it is as coarse as the grade (one decimal); a variant that only breaks the grade's ties
shows here as well as in a rebuilt binary.

Features: case splits; steps; the longest chain told under a split (its links: the small
steps from the assumption to the contradiction, told when the split cites more than six
constraints) and the links of all of them; the most constraints a split cites; the
distinct values the links of one chain fix (1: a chain on one value, Sukaku Explainer's
X-chain); the highest Sukaku Explainer rating of a technique named in a step or a link
(singles 1.0-2.3, locked candidates 2.6-2.8, subsets and fish 3.0-5.4); eliminations.

Only the tuning set should choose a variant; run the held-out set once, after.

usage: features.py DIR [--set tuning|heldout]
"""
import argparse
import glob
import json
import math
import os

from rank import spearman

HERE = os.path.dirname(os.path.abspath(__file__))
BANDS = [(0.0, 99.0), (5.4, 9.1), (5.4, 7.3), (7.0, 9.1), (3.8, 6.9)]
# Sukaku Explainer's ratings of the techniques models/src/explain/technique.rs names
# (a hidden single at its box rating, an elimination as a naked single).
SE = {'full house': 1.0, 'hidden single': 1.2, 'naked single': 2.3, 'elimination': 2.3, 'pointing': 2.6,
      'box-line reduction': 2.8, 'locked candidates': 2.8, 'naked pair': 3.0, 'X-wing': 3.2, 'hidden pair': 3.4,
      'naked triple': 3.6, 'swordfish': 3.8, 'hidden triple': 4.0, 'XY-wing': 4.2, 'naked quad': 5.0,
      'jellyfish': 5.2, 'hidden quad': 5.4}
# The grade's map, (score, grade), to read the score back from a printed grade.
POINTS = [(0.0, 1.0), (0.667, 1.2), (0.883, 2.3), (0.935, 3.0), (1.0, 3.04), (1.231, 4.3), (1.366, 5.0),
          (4.749, 5.5), (5.102, 5.7), (5.278, 6.4), (5.509, 7.0), (5.761, 7.7), (6.002, 8.3), (6.372, 8.8),
          (8.5, 11.9)]


def score_of(grade):
    for (s0, g0), (s1, g1) in zip(POINTS, POINTS[1:]):
        if g0 <= grade <= g1:
            return s0 + (s1 - s0) * (grade - g0) / (g1 - g0)
    return POINTS[-1][0]


def links(step):
    for link in step.get('chain', []):
        yield link
        yield from links(link)


def features(o):
    steps = o['steps']
    splits = [s for s in steps if s['reasoning'] != 'direct']
    chains = [len(s.get('chain', [])) for s in splits]
    values = [len({v for link in s.get('chain', []) for v in link['conclusion'].get('values', [])[:1]
                   if len(link['conclusion'].get('values', [])) == 1}) for s in splits]
    named = [SE.get(s['technique'], 0.0) for s in steps] + [SE.get(l['technique'], 0.0) for s in steps for l in links(s)]
    return {
        'grade': o['grade'],
        'splits': len(splits),
        'steps': len(steps),
        'longest chain': max(chains, default=0),
        'chain links': sum(chains),
        'split constraints': max((len(s['constraints']) for s in splits), default=0),
        'chain values': max(values, default=0),
        'technique SE': max(named, default=0.0),
        'eliminations': sum(1 for s in steps if s['technique'] == 'elimination'),
    }


VARIANTS = [
    ('score + 0.1 ln(1 + longest chain)', lambda f, s: s + 0.1 * math.log1p(f['longest chain'])),
    ('score + 0.1 ln(1 + chain links)', lambda f, s: s + 0.1 * math.log1p(f['chain links'])),
    ('score + 0.1 ln(1 + split constraints)', lambda f, s: s + 0.1 * math.log1p(f['split constraints'])),
    ('score + 0.1 ln(1 + steps)', lambda f, s: s + 0.1 * math.log1p(f['steps'])),
    ('score + 0.05 chain values', lambda f, s: s + 0.05 * f['chain values']),
    ('max(grade, technique SE)', lambda f, s: max(f['grade'], f['technique SE'])),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('--set', choices=['tuning', 'heldout'], default='tuning')
    args = ap.parse_args()
    rating = {}
    with open(os.path.join(HERE, f'{args.set}.txt')) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4 and not line.startswith('#') and '-' not in parts[2]:
                rating[parts[3].replace(':', '_')] = float(parts[2])
    rows = []
    for path in sorted(glob.glob(os.path.join(args.dir, args.set, '*.json'))):
        key = os.path.basename(path)[:-5]
        if key in rating:
            with open(path) as f:
                rows.append((rating[key], features(json.load(f))))
    print(f'{args.set}: {len(rows)} rated puzzles; Spearman rho with the rating per band')
    print('| reading | ' + ' | '.join(f'{lo}-{hi}' if hi < 99 else 'all' for lo, hi in BANDS) + ' |')
    print('|---|' + '---:|' * len(BANDS))
    readings = [(k, (lambda f, s, k=k: f[k])) for k in rows[0][1]] + VARIANTS
    for name, read in readings:
        cells = []
        for lo, hi in BANDS:
            band = [(r, f) for r, f in rows if lo <= r <= hi]
            xs = [read(f, score_of(f['grade'])) for _, f in band]
            cells.append(f'{spearman(xs, [r for r, _ in band]):.3f}')
        print(f'| {name} | ' + ' | '.join(cells) + ' |')


main()

#!/usr/bin/env python3
"""Builds the tuning and held-out sets of bench/grade/ from the Sudoku Exchange puzzle bank.

Sources (all public domain; see README.md): the bank's lines split by rating into one file per
rating (`2.5.txt` ... `9.3.txt`, github miguellobato84/sudoku-exchange-puzzle-bank, whose
`easy/medium/hard/diabolical.txt` are byte-identical to grantm/sudoku-exchange-puzzle-bank's),
and the first 500 puzzles of the bank's easy and medium files with their solutions
(`easy_puzzle_and_solution.txt`, `medium_puzzle_and_solution.txt`, github
robyngraf/sudoku-exchange-puzzle-bank).

For each rating, up to PER_RATING puzzles are drawn with random.Random(SEED); the k-th drawn goes
to the tuning set when k is even, to the held-out set when odd. Easy puzzles are all rated 1.2
(the bank's easy bucket is "< 1.5", and its split by rating has 1.2 alone below 1.5). Medium
puzzles are rated 1.5-2.3 without the exact value: they are written with rating "1.5-2.3" and
used for the band check only, not for the rank correlation.

usage: make_sets.py RATED_DIR EASY_FILE MEDIUM_FILE   (writes tuning.txt and heldout.txt here)
"""
import os, random, sys

SEED = 37
PER_RATING = 24

def main():
    rated_dir, easy, medium = sys.argv[1:4]
    rng = random.Random(SEED)
    by_rating = {}
    for name in sorted(os.listdir(rated_dir)):
        if not name[0].isdigit() or not name.endswith('.txt'):
            continue
        rating = name[:-4]
        with open(os.path.join(rated_dir, name)) as f:
            lines = [l.split() for l in f if l.strip()]
        by_rating[rating] = [(h, d, r, f"{name}:{i + 1}") for i, (h, d, r) in enumerate(lines)]
    for rating, path in (('1.2', easy), ('1.5-2.3', medium)):
        with open(path) as f:
            lines = [l.split() for l in f if l.strip()]
        base = os.path.basename(path)
        by_rating[rating] = [('-', p, rating, f"{base}:{i + 1}") for i, (p, _solution) in enumerate(lines)]
    sets = {'tuning': [], 'heldout': []}
    for rating in sorted(by_rating, key=lambda r: float(r.split('-')[0])):
        lines = by_rating[rating]
        drawn = rng.sample(lines, min(PER_RATING, len(lines)))
        for k, line in enumerate(drawn):
            sets['tuning' if k % 2 == 0 else 'heldout'].append(line)
    here = os.path.dirname(os.path.abspath(__file__))
    for name, lines in sets.items():
        with open(os.path.join(here, f'{name}.txt'), 'w') as f:
            f.write(f'# {name} set of bench/grade (make_sets.py, seed {SEED}, {PER_RATING} per rating): '
                    'id puzzle rating source:line\n')
            for h, d, r, src in lines:
                f.write(f'{h} {d} {r} {src}\n')
        print(name, len(lines))

main()

#!/usr/bin/env python3
"""Le Compte est Bon benchmark (called by bench/compte.sh; standard library only).

Checks every output first, then times whole processes (spawn to exit), output to /dev/null,
runs of the different commands interleaved so that machine load hits them alike. The binary
is copied to bench/.scratch/compte/ first: target/ is shared and may be rebuilt mid-run.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import time

from benchlib import die, loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
SCRATCH = os.path.join(BENCH, '.scratch', 'compte')
GAME = os.path.join('tests', 'corpus', 'compte', 'compte-819.puz')
EIGHT = '100 75 50 25 10 9 8 7'
PUBLISHED = {'selections': 13243, 'pairs': 11905457, 'solvable': 10858746,
             'by_large': [1963726, 4966076, 3192103, 693131, 43710],
             'hardest': (947, 9017), 'every': 1226, 'none': [[1, 1, 2, 2, 3, 3]]}


def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def check_steps(tiles, steps, expected):
    pool = list(tiles)
    last = None
    for step in steps:
        a, op, b, eq, c = step.split()
        a, b, c = int(a), int(b), int(c)
        value = {'+': a + b, '-': a - b, '×': a * b, '÷': a // b if b and a % b == 0 else None}[op]
        if eq != '=' or value != c or c <= 0:
            die(f'wrong step {step!r}')
        for v in (a, b):
            if v not in pool:
                die(f'{step!r}: {v} not available in {pool}')
            pool.remove(v)
        pool.append(c)
        last = c
    if last != expected:
        die(f'solution ends at {last}, not {expected}')


def checks(exe, root):
    code, out, _ = run([exe, '--all', '--format', 'json', GAME], root)
    o = json.loads(out)
    if code != 0 or o['status'] != 'solved' or not o['exact'] or o['best'] != 819:
        die('819 not solved: ' + out)
    for s in o['solutions']:
        check_steps([100, 2, 1, 10, 4, 3], s, 819)
    print(f"  819: {o['count']} distinct solutions, each re-checked")
    code, out, _ = run([exe, 'table', 'compte', '--threads', '2', '--format', 'json'], root)
    t = json.loads(out)
    got = {'selections': t['selections'], 'pairs': t['pairs'], 'solvable': t['solvable'],
           'by_large': [r['solvable'] for r in t['by_large']],
           'hardest': (t['hardest'][0]['target'], t['hardest'][0]['selections']),
           'every': len(t['reach_every_target']), 'none': t['reach_no_target']}
    if got != PUBLISHED:
        die(f'table differs from the published figures: {got}')
    print(f"  table: {t['solvable']} of {t['pairs']} solvable ({100 * t['share']:.2f}%), "
          f"by large tiles {got['by_large']}, hardest {got['hardest']}, {got['every']} reach every "
          f"target, {got['none']} none; draw-weighted {100 * t['draw_weighted_share']:.2f}%  (= published)")
    one = run([exe, 'table', 'compte', '--threads', '1', '--format', 'json'], root)[1]
    if one != out:
        die('the table differs between 1 and 2 threads')
    code, out, _ = run([exe, 'table', 'compte', '--tiles', EIGHT, '--format', 'json'], root)
    e = json.loads(out)
    print(f"  8 tiles {EIGHT}: {e['reachable']} of 899 targets reachable")


def timed(cmds, runs, root):
    times = {name: [] for name, _ in cmds}
    for _ in range(2):  # warm-up
        for _, argv in cmds:
            subprocess.run(argv, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(runs):
        for name, argv in cmds:
            t = time.perf_counter()
            subprocess.run(argv, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - t)
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--runs', type=int, default=21)
    args = ap.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    exe = os.path.join(SCRATCH, 'cpsolve')
    shutil.copy2(os.path.join(args.root, 'target', 'release', 'cpsolve'), exe)
    print(f'== checks (load {loadavg()})')
    checks(exe, args.root)
    print(f'== timing, N = {args.runs} (load {loadavg()})')
    fast = timed([
        ('/bin/true', ['/bin/true']),
        ('floor: compte 5 -> 5', [exe, '-e', 'compte 5 -> 5']),
        ('819, all solutions', [exe, '--all', GAME]),
        ('8 tiles, all targets', [exe, 'table', 'compte', '--tiles', EIGHT]),
    ], args.runs, args.root)
    heavy = timed([
        ('table, 1 thread', [exe, 'table', 'compte', '--threads', '1']),
        ('table, 2 threads', [exe, 'table', 'compte', '--threads', '2']),
    ], min(args.runs, 5), args.root)
    goals = {'819, all solutions': 0.002, '8 tiles, all targets': 0.5, 'table, 2 threads': 2.0}
    print(f"{'command':<24} {'median ms':>10} {'min ms':>10}  goal")
    for name, ts in list(fast.items()) + list(heavy.items()):
        med, low = statistics.median(ts) * 1e3, min(ts) * 1e3
        goal = goals.get(name)
        verdict = '' if goal is None else f"<= {goal * 1e3:g} ms: {'met' if med <= goal * 1e3 else 'NOT met'}"
        print(f'{name:<24} {med:>10.2f} {low:>10.2f}  {verdict}')
    print(f'(load {loadavg()}; nproc {os.cpu_count()})')


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Reliability benchmark: hostile inputs under --timeout and --memory (issue 21).

Called by bench/limits.sh; standard library only.  Each input is written to
bench/.scratch/limits/ and run by cpsolve under a time limit, alone and with a memory limit.
For each run: the exit status (3 expected: a limit struck), the limit the output names,
the wall time against the promise (limit + 10% + 50 ms), and the peak resident memory of
the process (from wait4) against the --memory given.  A row fails when the run crashes (an
exit status other than 0-3), overstays, or outgrows its memory limit; an input that used to
run away and is now solved (exit 0) or refused with a located error (exit 2) passes.

Options: --timeout SECONDS (default 2), --memory MB (default 500), --cpsolve PATH.
"""
import argparse
import os
import random
import subprocess
import sys
import time

from benchlib import loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
SCRATCH = os.path.join(BENCH, '.scratch', 'limits')


def minesweeper(width, height, mines, seed):
    """A random position: `mines` mines, half of the safe cells open."""
    rng = random.Random(seed)
    cells = width * height
    mine = set(rng.sample(range(cells), mines))
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            if y * width + x in mine or rng.random() < 0.5:
                row.append('.')
                continue
            near = sum(1 for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                       if (dy or dx) and 0 <= y + dy < height and 0 <= x + dx < width
                       and (y + dy) * width + x + dx in mine)
            row.append(str(near))
        rows.append(' '.join(row))
    return f'minesweeper mines = {mines}\n' + '\n'.join(rows) + '\n'


def inputs():
    """(name, model text): the inputs of issue 21, then the same kinds scaled up."""
    with open(os.path.join(ROOT, 'tests/corpus/model/assignment-element.puz')) as f:
        assignment = f.read()
    huge_cost = assignment.replace('[[14,  5', '[[4294967296,  5')
    assert huge_cost != assignment
    return [
        ('queens n=100000, solve all', 'queens n = 100000\nsolve all\n'),
        ('queens n=100000, solve count', 'queens n = 100000\nsolve count\n'),
        ('assignment, one cost 2^32', huge_cost),
        ('element over [1, 2^32]', 'let a = [1, 4294967296]\nvar i in 1..2\nvar z in 0..10000000000\n'
                                   'z == a[i]\nsolve all\n'),
        ('element over [1, 2^50]', 'let a = [1, 1125899906842624, 7]\nvar i in 1..3\n'
                                   'var z in 0..10000000000000000\nz == a[i]\nsolve all\n'),
        ('minesweeper 100x100, 2000 mines', minesweeper(100, 100, 2000, 7)),
        ('minesweeper 200x200, 8000 mines', minesweeper(200, 200, 8000, 2)),
        ('compte, 15 tiles', 'compte 1 2 3 4 5 6 7 8 9 10 25 50 75 100 3 -> 98765\n'),
        ('compte, 16 tiles', 'compte 1 2 3 4 5 6 7 8 9 10 25 50 75 100 3 4 -> 987654\n'),
        ('2M compiled constraints', 'let n = 1999999\nvar x in 0..n\nforall i in 1..n: x != i\nsolve first\n'),
        ('all solutions kept for JSON', 'var x[1..9] in 1..9\nsolve all\n'),
        ('nvalue over 10^8-value domains', 'var x[1..3] in 0..100000000\nvar n in 1..3\nnvalue(n, x)\n'
                                           'solve first\n'),
    ]


def measured(cpsolve, path, args, cap):
    """Runs cpsolve through a tiny Python child that reports the grandchild's wait4 rusage,
    so each row has its own peak RSS."""
    probe = (
        'import os,subprocess,sys,time\n'
        't=time.monotonic()\n'
        'p=subprocess.Popen(sys.argv[1:],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL)\n'
        'out=p.stdout.read()\n'
        '_,status,ru=os.wait4(p.pid,0)\n'
        'w=time.monotonic()-t\n'
        'code=os.waitstatus_to_exitcode(status)\n'
        'sys.stdout.write(f"{code} {w:.3f} {ru.ru_maxrss}\\n"+out.decode(errors="replace"))\n'
    )
    try:
        done = subprocess.run([sys.executable, '-c', probe, cpsolve, *args, path],
                              capture_output=True, timeout=cap, text=True)
    except subprocess.TimeoutExpired:
        return None, '', cap, 0
    head, _, stdout = done.stdout.partition('\n')
    code, wall, rss_kb = head.split()
    return int(code), stdout, float(wall), int(rss_kb) / 1024


def said_limit(stdout):
    for word in ('memory', 'time'):
        if f'{word} limit' in stdout or f'"stopped":"{word}"' in stdout:
            return word
    return '-'


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--timeout', type=float, default=2.0)
    parser.add_argument('--memory', type=int, default=500)
    parser.add_argument('--cpsolve', default=os.path.join(ROOT, 'target/release/cpsolve'))
    args = parser.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    promise = args.timeout * 1.1 + 0.05
    print(f'# cpsolve limits, {time.strftime("%Y-%m-%d %H:%M")}, load {loadavg()}, '
          f'--timeout {args.timeout} (promise: stopped by {promise:.2f} s)')
    print()
    print('| input | limits | exit | limit named | wall s | peak RSS MB | ok |')
    print('|---|---|---:|---|---:|---:|---|')
    failures = 0
    for i, (name, text) in enumerate(inputs()):
        path = os.path.join(SCRATCH, f'{i:02d}.puz')
        with open(path, 'w') as f:
            f.write(text)
        for memory in (None, args.memory):
            flags = ['--timeout', str(args.timeout)] + (['--memory', str(memory)] if memory else [])
            if name == 'all solutions kept for JSON':
                flags += ['--format', 'json']
            code, stdout, wall, rss = measured(args.cpsolve, path, flags, cap=60)
            problems = []
            if code not in (0, 1, 2, 3):
                problems.append(f'exit {code}')
            if wall > promise:
                problems.append('late')
            if memory and rss > memory:
                problems.append('over memory')
            failures += bool(problems)
            limits = f'{args.timeout} s' + (f', {memory} MB' if memory else '')
            verdict = 'yes' if not problems else 'NO: ' + ', '.join(problems)
            print(f'| {name} | {limits} | {code} | {said_limit(stdout)} | {wall:.2f} | {rss:.0f} | {verdict} |',
                  flush=True)
    print()
    print(f'{failures} failing row(s)')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()

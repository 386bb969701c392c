#!/usr/bin/env python3
"""Random parity systems under fzn-cpsolve (called by bench/parity.sh; standard library only).

Each system is satisfiable by construction (the parities are those of a hidden random
assignment); a reported solution is checked against every equation. The binary is copied
to bench/.scratch/parity/ first: target/ is shared and may be rebuilt mid-run.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import time

from benchlib import die, loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
SCRATCH = os.path.join(BENCH, '.scratch', 'parity')


def system(n, seed):
    """About 0.95·n equations of 3–6 of n variables, satisfied by a hidden assignment."""
    rng = random.Random(seed)
    hidden = [rng.randint(0, 1) for _ in range(n)]
    equations = []
    for _ in range(n * 95 // 100):
        xs = rng.sample(range(n), rng.randint(3, 6))
        equations.append((xs, sum(hidden[x] for x in xs) % 2 == 1))
    return equations


def fzn(n, equations):
    lines = [f'var bool: x{i} :: output_var;' for i in range(n)]
    for xs, odd in equations:
        # array_bool_xor asks for an odd number of trues: an even parity gets a `true`.
        terms = [f'x{x}' for x in xs] + ([] if odd else ['true'])
        lines.append(f'constraint array_bool_xor([{", ".join(terms)}]);')
    lines.append('solve satisfy;')
    return '\n'.join(lines) + '\n'


def run(binary, model, timeout):
    start = time.monotonic()
    child = subprocess.run([binary, '-f', '-s', '-t', str(timeout * 1000), model], capture_output=True, text=True)
    wall = time.monotonic() - start
    values = {int(m.group(1)): m.group(2) == 'true' for m in re.finditer(r'^x(\d+) = (true|false);', child.stdout, re.M)}
    nodes = re.search(r'%%%mzn-stat: nodes=(\d+)', child.stdout)
    return child.returncode, values, wall, nodes.group(1) if nodes else '-'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--sizes', default='100,300,600,1000')
    ap.add_argument('--timeout', type=int, default=30)
    ap.add_argument('--against')
    args = ap.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    binaries = [('cpsolve', os.path.join(SCRATCH, 'fzn-cpsolve'))]
    shutil.copy2(os.path.join(args.root, 'target', 'release', 'fzn-cpsolve'), binaries[0][1])
    if args.against:
        binaries.append(('against', args.against))
    print(f'# random parity systems, 3-6 variables per equation, timeout {args.timeout} s; '
          f'load average at start: {loadavg()}')
    print(f'{"n":>6} {"equations":>9}  ' + '  '.join(f'{name:>24}' for name, _ in binaries))
    for n in [int(s) for s in args.sizes.split(',')]:
        equations = system(n, seed=n)
        model = os.path.join(SCRATCH, f'parity-{n}.fzn')
        with open(model, 'w') as f:
            f.write(fzn(n, equations))
        cells = []
        for _, binary in binaries:
            rc, values, wall, nodes = run(binary, model, args.timeout)
            if values:
                for xs, odd in equations:
                    if (sum(values[x] for x in xs) % 2 == 1) != odd:
                        die(f'parity.sh: WRONG: {binary} on n = {n} breaks the equation over {xs}')
                cells.append(f'solved {wall:6.2f} s {nodes:>8}')
            else:
                cells.append(f'{"stopped" if rc in (0, 3) else f"rc {rc}"} {wall:6.2f} s {nodes:>7}')
        print(f'{n:>6} {len(equations):>9}  ' + '  '.join(f'{c:>24}' for c in cells), flush=True)
    print(f'# load average at end: {loadavg()}')


if __name__ == '__main__':
    main()

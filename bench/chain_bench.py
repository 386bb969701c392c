#!/usr/bin/env python3
"""`cpsolve explain` on chains of `x[i] < x[i+1]` (called by bench/chain.sh; standard library only).

Each run is a whole process, its peak memory the kernel's maximum resident set of the
children so far (the sizes run in ascending order, so it is the latest run's). The binary is copied to bench/.scratch/chain/ first: target/ is shared and may
be rebuilt mid-run.
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import time

from benchlib import die, loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
SCRATCH = os.path.join(BENCH, '.scratch', 'chain')
GOAL_S, GOAL_MB = 5.0, 200


def run(binary, model):
    start = time.monotonic()
    child = subprocess.run([binary, 'explain', model], capture_output=True, text=True)
    wall = time.monotonic() - start
    # The largest resident set of any child so far: this run's, as the sizes ascend.
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return child.returncode, child.stdout, child.stderr, wall, peak_mb


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--sizes', default='500,1000,2000,4000')
    args = ap.parse_args()
    os.makedirs(SCRATCH, exist_ok=True)
    binary = os.path.join(SCRATCH, 'cpsolve')
    shutil.copy2(os.path.join(args.root, 'target', 'release', 'cpsolve'), binary)
    print(f'# explain on chains x[i] < x[i+1] over 1..n; load average at start: {loadavg()}')
    print('| n | wall s | peak MB | steps | most constraints in a step | goal (n = 4000: ≤ 5 s, ≤ 200 MB) |')
    print('|---:|---:|---:|---:|---:|---|')
    failed = False
    # Ascending sizes: the children's peak is then this run's.
    for n in sorted(int(s) for s in args.sizes.split(',')):
        model = os.path.join(SCRATCH, f'chain{n}.puz')
        with open(model, 'w') as f:
            f.write(f'var x[1..{n}] in 1..{n}\nforall i in 1..{n - 1}: x[i] < x[i+1]\nsolve all\n')
        code, out, err, wall, mb = run(binary, model)
        if code != 0:
            die(f'n = {n}: exit {code}: {err.strip()[:200]}')
        expected = 'x = [' + ', '.join(str(i) for i in range(1, n + 1)) + ']'
        if expected not in out:
            die(f'n = {n}: the explanation does not end with x[i] = i')
        steps = re.findall(r'^ *\d+\. ', out, re.M)
        # Each step has one "by" line and one "and" line per further constraint.
        widest = 1 + max((len(re.findall(r'^     and ', block)) for block in re.split(r'^ *\d+\. ', out, flags=re.M)[1:]), default=0)
        verdict = ''
        if n == 4000:
            ok = wall <= GOAL_S and mb <= GOAL_MB
            failed |= not ok
            verdict = 'met' if ok else 'NOT met'
        print(f'| {n} | {wall:.2f} | {mb:.0f} | {len(steps)} | {widest} | {verdict} |', flush=True)
    print(f'# load average at end: {loadavg()}')
    return 1 if failed else 0


if __name__ == '__main__':
    raise SystemExit(main())

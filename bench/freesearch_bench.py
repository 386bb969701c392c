#!/usr/bin/env python3
"""Free search (`fzn-cpsolve -f`) on the optimisation instances of tests/minizinc/, under
several sets of flags, one set after the other in the same run: which are proved within the
time limit, the best objective found for the others. With --satisfy, on the satisfaction
instances instead: which get their first solution (or a proof that there is none). Called by bench/freesearch.sh; standard
library only. See notes/flatzinc.md ("Phase saving on, restarts still off")."""
import argparse, json, os, re, subprocess, sys, time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
CORPUS = os.path.join(ROOT, 'tests', 'minizinc')
SCRATCH = os.path.join(BENCH, '.scratch', 'freesearch')


def flatten(fzn_bin, satisfy):
    """Flattens each optimisation (or satisfaction) instance once with cpsolve's mznlib;
    returns the list."""
    os.makedirs(os.path.join(SCRATCH, 'fzn'), exist_ok=True)
    msc = os.path.join(SCRATCH, 'cpsolve.msc')
    with open(msc, 'w') as f:
        json.dump({'id': 'org.cpsolve.freesearch', 'name': 'cpsolve', 'version': '0',
                   'mznlib': os.path.join(ROOT, 'mznlib'), 'executable': fzn_bin,
                   'stdFlags': ['-a', '-f', '-n', '-s', '-t'], 'supportsMzn': False,
                   'supportsFzn': True, 'needsSolns2Out': True}, f)
    instances = []
    for e in json.load(open(os.path.join(CORPUS, 'expected.json'))):
        if (e['method'] == 'satisfy') != satisfy:
            continue
        name = '%s/%s' % (e['folder'], (e['dzn'] or e['mzn']).rsplit('.', 1)[0])
        fzn = os.path.join(SCRATCH, 'fzn', name.replace('/', '__') + '.fzn')
        cmd = ['minizinc', '--solver', msc, '-c', os.path.join(CORPUS, e['folder'], e['mzn'])]
        if e['dzn']:
            cmd.append(os.path.join(CORPUS, e['folder'], e['dzn']))
        r = subprocess.run(cmd + ['--fzn', fzn, '--ozn', os.devnull], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit('freesearch: flattening %s failed: %s' % (name, r.stderr[:300]))
        instances.append((name, fzn, e['objective']))
    return instances


def run(fzn_bin, fzn, flags, limit):
    start = time.time()
    r = subprocess.run([fzn_bin, '-f', '-s', '-t', str(int(limit * 1000))] + flags + [fzn],
                       capture_output=True, text=True)
    wall = time.time() - start
    # A satisfaction run stops at its first solution: that is its proof.
    proved = any(mark in r.stdout for mark in ('==========', '=====UNSATISFIABLE=====', '----------'))
    found = re.findall(r'objective=(-?\d+)', r.stdout)
    return proved, wall, (int(found[-1]) if found else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--fzn-cpsolve', required=True)
    ap.add_argument('--limit', type=float, default=10)
    ap.add_argument('--satisfy', action='store_true', help='the satisfaction instances instead')
    ap.add_argument('configs', nargs='+', help='sets of flags, each one string ("" for none)')
    args = ap.parse_args()
    instances = flatten(args.fzn_cpsolve, args.satisfy)
    print('%d %s instances, free search, %g s each; load before: %s'
          % (len(instances), 'satisfaction' if args.satisfy else 'optimisation', args.limit,
             open('/proc/loadavg').read().split()[:3]))
    totals = []
    for config in args.configs:
        flags = config.split()
        proved, total, rows = 0, 0.0, []
        for name, fzn, optimum in instances:
            ok, wall, obj = run(args.fzn_cpsolve, fzn, flags, args.limit)
            proved += ok
            total += wall if ok else args.limit
            if not ok:
                rows.append('%s %s (%s)' % (name, obj if obj is not None else 'none', optimum))
        totals.append((config or '(none)', proved, total, rows))
        print('flags %-40s proved %2d of %d, total %.1f s (an unproved instance counts %g s)'
              % (config or '(none)', proved, len(instances), total, args.limit), flush=True)
        for row in rows:
            print('    not proved: best found (optimum): ' + row)
    print('load after: %s' % open('/proc/loadavg').read().split()[:3])


if __name__ == '__main__':
    main()

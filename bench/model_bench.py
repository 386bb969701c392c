#!/usr/bin/env python3
"""Model gallery benchmark: cpsolve on tests/corpus/model/*.puz beside MiniZinc + Gecode on the
twin models of bench/mzn/*.mzn.

Called by bench/model.sh; standard library only.  For each model, in the same run and with the
rounds interleaved (the order rotates each round, so a change in load hits every tool alike):

  cpsolve        `cpsolve --stats --format json [header args] MODEL.puz`: wall time of the
                 process, and its own stats.time_ms (the search, without parsing and compiling)
  gecode         `minizinc --solver gecode -a -s TWIN.mzn` with Gecode's default search (no
                 annotation): wall time of the whole minizinc process, and Gecode's own
                 flatTime (MiniZinc flattening), initTime (posting) and solveTime (search)
  gecode-ff      the same with cpsolve's search as an annotation, taken from the twin's
                 `% search: ...` comment: int_search(vars, dom_w_deg, indomain_min), or
                 indomain_max where the .puz says `option val-order = max`

`-a` makes MiniZinc print every solution of a satisfaction model and every improving solution
of an optimisation, as cpsolve does.  Every figure is checked first against the known answer
(count of solutions, or the proven optimum); a wrong answer is reported, not timed.  A model
that cpsolve rejects (a feature not supported yet, exit 2) is reported as such and Gecode is
still timed.  Ratios are cpsolve / gecode: above 1 means cpsolve is slower.

Options: --reps N (default 5), --only NAME[,NAME...], --cap SECONDS (per run, default 120),
--native (Gecode's native all_different_int instead of `alldifferent`, which Debian's
MiniZinc 2.6.4 + Gecode 6.2.0 decompose into pairwise int_lin_ne: Gecode's library there
has no native alldifferent), --no-ff (skip the gecode-ff variant),
--cpsolve PATH (default: a copy of target/release/cpsolve).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

from benchlib import loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
SCRATCH = os.path.join(BENCH, '.scratch', 'model')        # git-ignored (bench/.gitignore)
GALLERY = 'tests/corpus/model'

# name, .puz (relative to the repository root), twin in bench/mzn, ('count', n) | ('optimum', v)
# | ('first', 1) (one solution wanted: Gecode runs without -a)
MODELS = [
    ('sudoku', GALLERY + '/sudoku.puz', 'sudoku.mzn', ('count', 1)),
    ('sudoku-hardest', GALLERY + '/sudoku-hardest.puz', 'sudoku-hardest.mzn', ('count', 1)),
    ('magic-square-3', GALLERY + '/magic-square-3.puz', 'magic-square-3.mzn', ('count', 8)),
    ('magic-square-4', GALLERY + '/magic-square-4.puz', 'magic-square-4.mzn', ('count', 7040)),
    ('send-more-money', GALLERY + '/send-more-money.puz', 'send-more-money.mzn', ('count', 1)),
    ('send-more-money-carries', GALLERY + '/send-more-money-carries.puz',
     'send-more-money-carries.mzn', ('count', 1)),
    ('send-most-money', GALLERY + '/send-most-money.puz', 'send-most-money.mzn', ('optimum', 10876)),
    ('queens', GALLERY + '/queens.puz', 'queens.mzn', ('count', 92)),
    ('zebra', GALLERY + '/zebra.puz', 'zebra.mzn', ('count', 1)),
    ('zebra-aux', 'bench/models/zebra-aux.puz', 'zebra.mzn', ('count', 1)),
    ('magic-sequence', GALLERY + '/magic-sequence.puz', 'magic-sequence.mzn', ('count', 1)),
    ('knapsack', GALLERY + '/knapsack.puz', 'knapsack.mzn', ('optimum', 1030)),
    ('coin-change', GALLERY + '/coin-change.puz', 'coin-change.mzn', ('optimum', 8)),
    ('assignment', GALLERY + '/assignment.puz', 'assignment.mzn', ('optimum', 15)),
    ('assignment-element', GALLERY + '/assignment-element.puz', 'assignment-element.mzn', ('optimum', 15)),
    ('who-killed-agatha', GALLERY + '/who-killed-agatha.puz', 'who-killed-agatha.mzn', ('count', 8)),
    ('traffic-lights', GALLERY + '/traffic-lights.puz', 'traffic-lights.mzn', ('count', 4)),
    ('golomb-8', GALLERY + '/golomb-8.puz', 'golomb-8.mzn', ('optimum', 34)),
    ('golomb-10', GALLERY + '/golomb-10.puz', 'golomb-10.mzn', ('optimum', 55)),
    # Global constraints, each with the same model decomposed (bench/models/*-decomposed.puz)
    ('knights-tour-6', GALLERY + '/knights-tour-6.puz', 'knights-tour-6.mzn', ('first', 1)),
    ('knights-tour-6-decomposed', 'bench/models/knights-tour-6-decomposed.puz', 'knights-tour-6.mzn',
     ('first', 1)),
    ('nonogram', GALLERY + '/nonogram.puz', 'nonogram.mzn', ('count', 1)),
    ('nonogram-decomposed', 'bench/models/nonogram-decomposed.puz', 'nonogram.mzn', ('count', 1)),
    ('rcpsp-10', GALLERY + '/rcpsp-10.puz', 'rcpsp-10.mzn', ('optimum', 22)),
    ('rcpsp-10-decomposed', 'bench/models/rcpsp-10-decomposed.puz', 'rcpsp-10.mzn', ('optimum', 22)),
    ('jobshop-ft06', GALLERY + '/jobshop-ft06.puz', 'jobshop-ft06.mzn', ('optimum', 55)),
    ('futoshiki', GALLERY + '/futoshiki.puz', 'futoshiki.mzn', ('count', 1)),
    ('kakuro', GALLERY + '/kakuro.puz', 'kakuro.mzn', ('count', 1)),
    ('hidato', GALLERY + '/hidato.puz', 'hidato.mzn', ('count', 1)),
    ('round-robin-8', GALLERY + '/round-robin-8.puz', 'round-robin-8.mzn', ('count', 6240)),
]

STAT_RE = re.compile(r'^%%%mzn-stat: (\w+)=(.*)$')
OBJ_RE = re.compile(r'objective=(-?\d+)')
SEARCH_RE = re.compile(r'%\s*search:\s*(.+)$', re.M)


def header_args(path):
    with open(path) as f:
        first = f.readline()
    if first.startswith('# cpsolve:'):
        return first[len('# cpsolve:'):].split()
    return []


def run(argv, cap, cwd):
    """(returncode or None on timeout, stdout, stderr, wall seconds)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=cap)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)           # minizinc starts fzn-gecode: end the whole group we started
        out, err = p.communicate()
        rc = None
    return rc, out, err, time.perf_counter() - t0


# ------------------------------------------------------------------ the tools
class Cpsolve:
    name = 'cpsolve'

    def __init__(self, exe, puz):
        self.exe, self.puz = exe, puz
        self.argv = [exe, '--stats', '--format', 'json'] + header_args(os.path.join(ROOT, puz)) + [puz]

    def once(self, cap, expect):
        rc, out, err, wall = run(self.argv, cap, ROOT)
        r = {'wall': wall, 'rc': rc}
        if rc is None:
            r['error'] = 'timeout after %g s' % cap
            return r
        try:
            o = json.loads(out.strip().splitlines()[0])
        except (json.JSONDecodeError, IndexError):
            r['error'] = 'exit %s, not JSON: %s %s' % (rc, out[:200], err[:300])
            return r
        if o.get('status') == 'error':
            msgs = sorted({e['message'] for e in o.get('errors', [])})
            r['error'] = 'exit %d: %s' % (rc, '; '.join(msgs))
            r['unsupported'] = rc == 2 and all('not supported yet' in m for m in msgs)
            return r
        r['inproc'] = o.get('stats', {}).get('time_ms', float('nan')) / 1000
        r['nodes'] = o.get('stats', {}).get('nodes')
        kind, want = expect
        if o.get('status') != 'solved':
            r['error'] = 'status %s (exit %s)' % (o.get('status'), rc)
        elif kind in ('count', 'first'):
            r['answer'] = o.get('count')
        else:
            r['answer'] = o.get('objective')
        return r


class Gecode:
    def __init__(self, name, mzn):
        self.name, self.mzn = name, mzn
        self.argv = ['minizinc', '--solver', 'gecode', '-a', '-s', mzn]

    def once(self, cap, expect):
        # A first solution is wanted: without -a, and no `==========` closes the search.
        argv = [a for a in self.argv if a != '-a'] if expect[0] == 'first' else self.argv
        rc, out, err, wall = run(argv, cap, os.path.dirname(self.mzn))
        r = {'wall': wall, 'rc': rc}
        if rc is None:
            r['error'] = 'timeout after %g s' % cap
            return r
        st = {}
        for line in out.splitlines():
            m = STAT_RE.match(line)
            if m:
                st[m.group(1)] = m.group(2)
        done = '----------' in out if expect[0] == 'first' else '==========' in out
        if rc != 0 or not done:
            r['error'] = 'exit %s, search not complete: %s' % (rc, (err.strip() or out[-300:])[-300:])
            return r
        r['inproc'] = float(st.get('solveTime', 'nan'))
        r['init'] = float(st.get('initTime', 'nan'))
        r['flat'] = float(st.get('flatTime', 'nan'))
        r['nodes'] = int(st['nodes']) if 'nodes' in st else None
        kind, want = expect
        if kind == 'first':
            r['answer'] = 1
        elif kind == 'count':
            r['answer'] = int(st.get('solutions', -1))
        else:
            objs = OBJ_RE.findall(out)
            r['answer'] = int(objs[-1]) if objs else None
        return r


def make_twin(mzn, variant, native):
    """The twin as is (variant gecode) or with its `% search:` annotation (gecode-ff); with
    native, `alldifferent` becomes Gecode's own all_different_int.  Written to the scratch dir."""
    with open(mzn) as f:
        s = f.read()
    if variant == 'gecode-ff':
        m = SEARCH_RE.search(s)
        if not m:
            return None
        ann = m.group(1).strip()
        s, k = re.subn(r'^solve\s+', 'solve :: %s ' % ann, s, count=1, flags=re.M)
        if k != 1:
            return None
    if native:
        s = s.replace('include "alldifferent.mzn";', 'include "all_different_int.mzn";')
        s = re.sub(r'\balldifferent\(', 'all_different_int(', s)
    if variant == 'gecode' and not native:
        return mzn
    os.makedirs(SCRATCH, exist_ok=True)
    out = os.path.join(SCRATCH, '%s%s-%s' % ('native-' if native else '', variant, os.path.basename(mzn)))
    with open(out, 'w') as f:
        f.write(s)
    return out


# ------------------------------------------------------------------ main
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt_s(x):
    if x is None:
        return '-'
    return '%.4f' % x if x < 10 else '%.2f' % x


def ratio(a, b):
    if a is None or b is None or b <= 0:
        return '-'
    return '%.2f' % (a / b)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--reps', type=int, default=5, help='timed runs per tool and model (default 5)')
    ap.add_argument('--only', default='', help='comma-separated model names (default: all)')
    ap.add_argument('--cap', type=float, default=120, help='seconds per run before it is killed')
    ap.add_argument('--native', action='store_true', help="Gecode's native all_different_int")
    ap.add_argument('--no-ff', action='store_true', help='skip the gecode-ff variant')
    ap.add_argument('--cpsolve', default='', help='binary to time (default: a copy of target/release/cpsolve)')
    ap.add_argument('--list', action='store_true', help='list the model names and exit')
    args = ap.parse_args()
    if args.list:
        for name, puz, mzn, (kind, want) in MODELS:
            print('%-24s %-50s bench/mzn/%-28s %s %s' % (name, puz, mzn, kind, want))
        return 0
    if args.reps < 1:
        ap.error('--reps must be >= 1')
    models = MODELS
    if args.only:
        names = [n.strip() for n in args.only.split(',') if n.strip()]
        unknown = [n for n in names if n not in {m[0] for m in MODELS}]
        if unknown:
            ap.error('unknown model(s) %s; known: %s' % (', '.join(unknown), ', '.join(m[0] for m in MODELS)))
        models = [m for m in MODELS if m[0] in names]

    # Snapshot the binary: target/ is shared and may be rebuilt in the middle of a run.
    exe = args.cpsolve
    if not exe:
        src = os.path.join(ROOT, 'target', 'release', 'cpsolve')
        if not os.access(src, os.X_OK):
            print('model_bench: %s is missing (build it, or pass --cpsolve PATH)' % src, file=sys.stderr)
            return 1
        os.makedirs(SCRATCH, exist_ok=True)
        exe = os.path.join(SCRATCH, 'cpsolve')
        shutil.copy2(src, exe + '.tmp')
        os.replace(exe + '.tmp', exe)
    exe = os.path.abspath(exe)

    have_mzn = shutil.which('minizinc') is not None
    print('== model gallery benchmark   %s' % time.strftime('%Y-%m-%d %H:%M:%S %Z'))
    print('cpsolve: %s' % os.path.relpath(exe, ROOT))
    if have_mzn:
        v = subprocess.run(['minizinc', '--version'], stdout=subprocess.PIPE, text=True).stdout.splitlines()
        print('minizinc: %s; solver gecode; alldifferent %s' % (
            v[0] if v else '?', 'native all_different_int' if args.native else 'as MiniZinc decomposes it'))
    else:
        print('!! minizinc is not installed: the MiniZinc + Gecode peer is missing, only cpsolve is timed.')
        print('!! (Debian/Ubuntu: apt-get install minizinc flatzinc)')
    print('reps: %d per tool and model, rounds interleaved; cap %g s per run; load at start: %s'
          % (args.reps, args.cap, loadavg()))

    rows = []
    for name, puz, mzn, expect in models:
        tools = [Cpsolve(exe, puz)]
        mzn_path = os.path.join(BENCH, 'mzn', mzn)
        if have_mzn:
            for variant in ['gecode'] + ([] if args.no_ff else ['gecode-ff']):
                twin = make_twin(mzn_path, variant, args.native)
                if twin:
                    tools.append(Gecode(variant, twin))
        load_before = loadavg()
        res = {t.name: [] for t in tools}
        broken = {}
        for r in range(args.reps):
            k = r % len(tools)
            for t in tools[k:] + tools[:k]:
                if t.name in broken:
                    continue
                o = t.once(args.cap, expect)
                if 'error' not in o and o.get('answer') != expect[1]:
                    o['error'] = 'WRONG: %s %s, expected %s' % (expect[0], o.get('answer'), expect[1])
                if 'error' in o:
                    broken[t.name] = o          # not timed further
                else:
                    res[t.name].append(o)
        row = {'name': name, 'expect': expect, 'load': '%s -> %s' % (load_before, loadavg()), 'tools': {}}
        for t in tools:
            runs = res[t.name]
            row['tools'][t.name] = {
                'error': broken.get(t.name, {}).get('error'),
                'unsupported': broken.get(t.name, {}).get('unsupported', False),
                'wall': med([o['wall'] for o in runs]),
                'inproc': med([o['inproc'] for o in runs]),
                'init': med([o.get('init') for o in runs]),
                'flat': med([o.get('flat') for o in runs]),
                'nodes': runs[0].get('nodes') if runs else None,
                'answer': runs[0].get('answer') if runs else None,
                'n': len(runs),
            }
        rows.append(row)
        cp = row['tools']['cpsolve']
        msg = cp['error'] or 'ok, %s %s' % expect
        print('  %-24s cpsolve: %s; load %s' % (name, msg, row['load']), flush=True)
        for tn, tr in row['tools'].items():
            if tn != 'cpsolve' and tr['error']:
                print('  %-24s %s: %s' % ('', tn, tr['error']))

    # ------------------------------------------------------------ table
    print('\n== medians (seconds).  cp = cpsolve, g = gecode (default search), ff = gecode with')
    print("   cpsolve's search (the twin's `% search:` annotation).  solve: cpsolve stats.time_ms")
    print('   vs Gecode solveTime;')
    print('   wall: the whole process (minizinc: flattening + Gecode start + search + output).')
    print('   ratio = cpsolve / gecode: above 1, cpsolve is slower.')
    head = ('%-24s %-13s %9s %9s %9s %9s %9s %8s %8s %9s %9s %8s %8s %9s %9s'
            % ('model', 'answer', 'cp nodes', 'cp solve', 'cp wall', 'g nodes', 'g solve', 'g flat',
               'g wall', 'solve cp/g', 'wall cp/g', 'ff nodes', 'ff solve', 'solve cp/ff', 'wall cp/ff'))
    print(head)
    print('-' * len(head))
    for row in rows:
        t = row['tools']
        cp, g, ff = t['cpsolve'], t.get('gecode'), t.get('gecode-ff')
        if cp['error']:
            ans = 'unsupported' if cp['unsupported'] else 'ERROR'
        else:
            ans = '%s=%s ok' % ({'count': 'n', 'first': 'found'}.get(row['expect'][0], 'opt'), cp['answer'])

        def col(tr, key):
            return fmt_s(tr[key]) if tr and not tr['error'] else ('FAIL' if tr else '-')

        def nodes(tr):
            return str(tr['nodes']) if tr and not tr['error'] and tr['nodes'] is not None else '-'
        print('%-24s %-13s %9s %9s %9s %9s %9s %8s %8s %9s %9s %8s %8s %9s %9s' % (
            row['name'], ans, nodes(cp), col(cp, 'inproc'), col(cp, 'wall'),
            nodes(g), col(g, 'inproc'), col(g, 'flat'), col(g, 'wall'),
            ratio(cp['inproc'], g and g['inproc']), ratio(cp['wall'], g and g['wall']),
            nodes(ff), col(ff, 'inproc'),
            ratio(cp['inproc'], ff and ff['inproc']), ratio(cp['wall'], ff and ff['wall'])))
    print('\nload (1, 5, 15 min) before -> after each model:')
    for row in rows:
        print('  %-24s %s' % (row['name'], row['load']))
    print('load at end: %s' % loadavg())
    bad = [r['name'] for r in rows for tn, tr in r['tools'].items()
           if tr['error'] and not tr['unsupported'] and 'WRONG' in tr['error']]
    if bad:
        print('\nWRONG ANSWERS: %s' % ', '.join(sorted(set(bad))))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())

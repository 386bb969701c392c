#!/usr/bin/env python3
"""MiniZinc benchmark: the instances of tests/minizinc/ under cpsolve and under Gecode, both
through `minizinc`, checked against expected.json.

Called by bench/minizinc.sh, which prepares the two solver configurations and passes their
directories in --solver-path; standard library only.  For each instance, in the same run, one
solver after the other (the order alternates from one instance to the next):

  cpsolve   minizinc --solver org.cpsolve.cpsolve   (fzn-cpsolve with the repository's mznlib/)
  gecode    minizinc --solver org.gecode.gecodefix  (Debian's Gecode 6.2.0, bench/peers/gecodefix.sh)

both with the same flags: -s --output-mode dzn --output-objective -t MS MODEL [DATA] (one
thread each, MiniZinc's default).  The wall time is the whole minizinc process: flattening,
solving and output.  A run still alive 30 s after the time limit is killed (its process group).

Status of a run:
  OPTIMAL    `==========` printed: optimum proved, or (satisfaction) search complete
  SATISFIED  a solution (`----------`) without `==========`: the first solution of a
             satisfaction problem, or the best one found before the limit of an optimisation
  UNSAT      `=====UNSATISFIABLE=====`
  UNKNOWN    no solution and no verdict, before the time limit
  TIMEOUT    no solution and no verdict at the time limit (or killed)
  ERROR      `=====ERROR=====`, or minizinc failed (flattening, the solver, ...); the reason
             (the first error line) is listed after the table
Verdict against expected.json (Gecode's answers): an unsatisfiability claimed for a satisfiable
instance, a solution of an unsatisfiable one, an objective better than the proved optimum, or a
proved optimum that differs from it is WRONG: listed loudly at the end, exit status 1.

Options: --timeout S (default 60), --only NAME[,NAME...] (a folder, or folder/instance),
--no-gecode, --no-cpsolve, --out FILE, --list.
"""
import argparse
import datetime
import hashlib
import json
import math
import os
import re
import signal
import subprocess
import sys
import time

from benchlib import die, loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
CORPUS = os.path.join(ROOT, 'tests', 'minizinc')
SCRATCH = os.path.join(BENCH, '.scratch', 'minizinc')        # git-ignored (bench/.gitignore)
SOLVERS = {'cpsolve': 'org.cpsolve.cpsolve', 'gecode': 'org.gecode.gecodefix',
           'pumpkin': 'nl.tudelft.algorithmics.pumpkin'}
GRACE = 30              # seconds past the time limit before a run is killed
STAT_RE = re.compile(r'^%%%mzn-stat: (\w+)=(.*)$')
OBJ_RE = re.compile(r'^_objective\s*=\s*(-?\d+)\s*;')


def instance_name(entry):
    return entry['folder'] + '/' + os.path.splitext(entry['dzn'] or entry['mzn'])[0]


def error_reason(stdout, stderr, rc):
    """One line saying why a run failed: MiniZinc's or the solver's first error line."""
    lines = [l.strip() for l in (stderr + '\n' + stdout).splitlines() if l.strip()]
    for i, l in enumerate(lines):
        if re.match(r'(?i)^(error|.*\berror:|.*\berror\b.*:)', l) and not l.startswith('%'):
            # cpsolve quotes the FlatZinc line at fault just below: name its constraint.
            at = next((m.group(1) for m in (re.search(r'\bconstraint\s+(\w+)', x) for x in lines[i + 1:i + 6]) if m),
                      None)
            return l[:160] + (' [at constraint %s]' % at if at and at not in l else '')
    tail = [l for l in lines if not l.startswith(('%', '=====', 'Warning'))]
    return (tail[-1][:160] if tail else 'minizinc exit %s' % rc)


def run(solver, solver_path, entry, timeout, corpus=CORPUS, flags=()):
    """One minizinc run of the instance `entry` of the folder `corpus`, with the extra minizinc
    `flags` (bench/hard_bench.py passes -f, -i): a dict with status, objective, wall, stats,
    reason."""
    model, data = instance_files(entry, corpus)
    cmd = ['minizinc', '--solver', SOLVERS[solver], '-s', '--output-mode', 'dzn', '--output-objective',
           '-t', str(int(timeout * 1000))] + list(flags) + [model] + data
    env = dict(os.environ, MZN_SOLVER_PATH=solver_path)
    return read_output(*run_command(cmd, os.path.join(corpus, entry['folder']), timeout, env=env), timeout)


def instance_files(entry, corpus):
    """The model's path and the list of data paths (none or one) of the instance `entry`."""
    model = os.path.join(corpus, entry['folder'], entry['mzn'])
    return model, ([os.path.join(corpus, entry['folder'], entry['dzn'])] if entry['dzn'] else [])


def run_command(cmd, cwd, timeout, env=None):
    """Runs `cmd` in its own process group, killed with everything it started when it is still
    alive GRACE seconds after `timeout`: (stdout, stderr, exit status, wall seconds, killed)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         cwd=cwd, start_new_session=True)
    killed = False
    try:
        out, err = p.communicate(timeout=timeout + GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)      # the run and the solver it started: our own group
        out, err = p.communicate()
        killed = True
    return out, err, p.returncode, time.monotonic() - start, killed


def read_output(out, err, rc, wall, killed, timeout):
    """The status, objective and statistics of a run that printed MiniZinc's text output
    (`----------`, `==========`, `_objective = N;`, `%%%mzn-stat:` lines)."""
    stats, objective = {}, None
    for line in out.splitlines():
        m = STAT_RE.match(line)
        if m:
            stats.setdefault(m.group(1), m.group(2))     # the solver's figures come first
            if m.group(1) == 'objective' and objective is None:
                try:
                    objective = int(float(m.group(2)))
                except ValueError:
                    pass
    objs = [int(m.group(1)) for m in map(OBJ_RE.match, out.splitlines()) if m]
    if objs:
        objective = objs[-1]          # the last solution printed: the best one
    solution = '----------' in out
    reason = ''
    if killed:
        status = 'TIMEOUT'
        reason = 'killed %d s after the time limit' % GRACE
    elif '=====ERROR=====' in out or (rc != 0 and not solution and '=====UNSATISFIABLE=====' not in out):
        status = 'ERROR'
        reason = error_reason(out, err, rc)
    elif '=====UNSATISFIABLE=====' in out:
        status = 'UNSAT'
    elif '==========' in out:
        status = 'OPTIMAL'
    elif solution:
        status = 'SATISFIED'
    elif wall >= 0.98 * timeout:
        status = 'TIMEOUT'
    else:
        status = 'UNKNOWN'
    if not solution:
        objective = None
    return {'status': status, 'objective': objective, 'wall': wall, 'rc': rc,
            'reason': reason, 'nodes': stats.get('nodes'), 'failures': stats.get('failures'),
            'solveTime': stats.get('solveTime'), 'flatTime': stats.get('flatTime')}


def judge(entry, r):
    """(verdict, kind, why): verdict 'solved' (the instance's question answered), 'open', or
    'wrong'; kind says how it was solved: optimal, all (satisfaction search complete), first
    (a solution of a satisfaction problem), unsat."""
    status, obj = r['status'], r['objective']
    expected, method, best = entry['status'], entry['method'], entry['objective']
    if status == 'UNSAT':
        if expected != 'unsat':
            return 'wrong', None, 'claims UNSAT; Gecode has %s' % (
                'optimum %s' % best if best is not None else 'a solution')
        return 'solved', 'unsat', ''
    if status in ('OPTIMAL', 'SATISFIED') and expected == 'unsat':
        return 'wrong', None, 'a solution (%s) of an instance Gecode proves unsatisfiable' % status
    if status not in ('OPTIMAL', 'SATISFIED'):
        return 'open', None, ''
    if method == 'satisfy':
        return 'solved', 'all' if status == 'OPTIMAL' else 'first', ''
    if obj is None:
        if status == 'OPTIMAL':
            return 'wrong', None, 'claims an optimum but printed no objective'
        return 'open', None, ''
    if best is not None:
        better = obj < best if method == 'minimize' else obj > best
        if better:
            return 'wrong', None, 'objective %d beats the proved optimum %d' % (obj, best)
        if status == 'OPTIMAL' and obj != best:
            return 'wrong', None, 'claims optimum %d; the optimum is %d' % (obj, best)
    return ('solved', 'optimal', '') if status == 'OPTIMAL' else ('open', None, '')


def sha_and_mtime(path):
    try:
        with open(path, 'rb') as f:
            sha = hashlib.sha256(f.read()).hexdigest()[:12]
        return sha, datetime.datetime.fromtimestamp(os.path.getmtime(path)).strftime('%Y-%m-%d %H:%M')
    except OSError:
        return None, None


def git_describe():
    try:
        out = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True)
        dirty = subprocess.run(['git', '-C', ROOT, 'status', '--porcelain', '--untracked-files=no'],
                               capture_output=True, text=True).stdout.strip()
        return out.stdout.strip() + (' + uncommitted edits' if dirty else '')
    except OSError:
        return '?'


def fmt_obj(x):
    return '-' if x is None else str(x)


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)      # `--list | head` ends quietly
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--solver-path', default=os.environ.get('MZN_SOLVER_PATH', ''),
                    help='MZN_SOLVER_PATH for both solvers (bench/minizinc.sh sets it)')
    ap.add_argument('--cpsolve-bin', default='', help='the fzn-cpsolve the configuration runs (for the header)')
    ap.add_argument('--timeout', type=float, default=60, help='seconds per instance and solver (default 60)')
    ap.add_argument('--only', default='', help='comma-separated folders or folder/instance names')
    ap.add_argument('--no-gecode', action='store_true', help='cpsolve alone')
    ap.add_argument('--no-cpsolve', action='store_true', help='Gecode alone')
    ap.add_argument('--out', default='', help='the results file (default: bench/results-minizinc-DATE.txt, '
                    'or bench/.scratch/minizinc/results-minizinc-DATE-only.txt with --only)')
    ap.add_argument('--list', action='store_true', help='list the instances and exit')
    args = ap.parse_args()
    entries = json.load(open(os.path.join(CORPUS, 'expected.json')))
    if args.list:
        for e in entries:
            print('%-45s %-9s %-9s %s' % (instance_name(e), e['method'], e['status'], fmt_obj(e['objective'])))
        return 0
    if args.timeout <= 0:
        ap.error('--timeout must be positive')
    if args.only:
        names = [n.strip().rstrip('/') for n in args.only.split(',') if n.strip()]
        unknown = [n for n in names if not any(n in (e['folder'], instance_name(e)) for e in entries)]
        if unknown:
            ap.error('unknown instance(s) %s (see --list)' % ', '.join(unknown))
        entries = [e for e in entries if e['folder'] in names or instance_name(e) in names]
    solvers = [s for s in ('cpsolve', 'gecode')
               if not (s == 'cpsolve' and args.no_cpsolve) and not (s == 'gecode' and args.no_gecode)]
    if not solvers:
        ap.error('--no-cpsolve and --no-gecode leave nothing to run')

    now = datetime.datetime.now()
    out_path = args.out or (os.path.join(SCRATCH, 'results-minizinc-%s-only.txt' % now.date()) if args.only
                            else os.path.join(BENCH, 'results-minizinc-%s.txt' % now.date()))
    lines = []

    def say(text=''):
        print(text, flush=True)
        lines.append(text)

    cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), '?')
    mzn = subprocess.run(['minizinc', '--version'], capture_output=True, text=True).stdout.splitlines()
    say('# MiniZinc benchmark, %s; %d instances of tests/minizinc/, timeout %g s per instance and solver'
        % (now.strftime('%Y-%m-%d %H:%M:%S %Z').strip(), len(entries), args.timeout))
    say('# machine: %d cores (nproc), %s; load average (1, 5, 15 min) at start: %s'
        % (os.cpu_count(), cpu, loadavg()))
    say('# %s; flags: -s --output-mode dzn --output-objective -t %d' % (mzn[0] if mzn else 'minizinc ?',
                                                                        args.timeout * 1000))
    if 'cpsolve' in solvers:
        sha, mtime = sha_and_mtime(args.cpsolve_bin) if args.cpsolve_bin else (None, None)
        say('# cpsolve: fzn-cpsolve %s, git %s' % (
            'sha256 %s, built %s' % (sha, mtime) if sha else '(binary missing: every run is an ERROR)',
            git_describe()))
    if 'gecode' in solvers:
        say('# gecode: Debian Gecode 6.2.0 (fzn-gecode) as org.gecode.gecodefix')
    say('# status: OPTIMAL (==========), SATISFIED (a solution, not proved), UNSAT, UNKNOWN, TIMEOUT, ERROR;')
    say('# wall: the whole minizinc run in seconds; "-" after it: question not answered; WRONG: disagrees '
        'with expected.json')
    head = '%-42s %-11s' % ('instance', 'expected') + ''.join(' | %-31s' % s for s in solvers) + ' | load1'
    say(head)
    say('-' * len(head))

    results = {s: [] for s in solvers}
    for i, e in enumerate(entries):
        load1 = loadavg().split()[0]
        order = solvers if i % 2 == 0 else solvers[::-1]
        row = {}
        for s in order:
            r = run(s, args.solver_path, e, args.timeout)
            r['verdict'], r['kind'], r['why'] = judge(e, r)
            r['name'] = instance_name(e)
            row[s] = r
            results[s].append(r)
        expected = {'unsat': 'unsat', 'solution': 'sat'}.get(e['status'], 'opt %s' % fmt_obj(e['objective']))
        cells = []
        for s in solvers:
            r = row[s]
            mark = {'solved': '', 'open': ' -', 'wrong': ' WRONG'}[r['verdict']]
            cells.append(' | %-9s %9s %7.2f%s' % (r['status'], fmt_obj(r['objective']), r['wall'], mark))
        say('%-42s %-11s' % (instance_name(e), expected) + ''.join('%-34s' % c for c in cells) + ' | ' + load1)
    say('# load average at end: %s' % loadavg())

    # ------------------------------------------------------------------ summary
    say()
    n_opt = sum(1 for e in entries if e['method'] != 'satisfy' and e['status'] == 'complete')
    n_sat = sum(1 for e in entries if e['method'] == 'satisfy' and e['status'] != 'unsat')
    n_unsat = sum(1 for e in entries if e['status'] == 'unsat')
    for s in solvers:
        rs = results[s]
        solved = [r for r in rs if r['verdict'] == 'solved']
        kinds = {k: sum(1 for r in solved if r['kind'] == k) for k in ('optimal', 'all', 'first', 'unsat')}
        by_status = {k: sum(1 for r in rs if r['status'] == k and r['verdict'] != 'solved')
                     for k in ('SATISFIED', 'TIMEOUT', 'UNKNOWN', 'ERROR')}
        wrong = [r for r in rs if r['verdict'] == 'wrong']
        say('%s: solved %d of %d: proved optimal %d of %d, unsat %d of %d, satisfaction %d of %d '
            '(all solutions %d, first solution %d); wall %.1f s in all'
            % (s, len(solved), len(rs), kinds['optimal'], n_opt, kinds['unsat'], n_unsat,
               kinds['all'] + kinds['first'], n_sat, kinds['all'], kinds['first'], sum(r['wall'] for r in rs)))
        say('    not solved: %d with a solution not proved optimal, %d timeout, %d unknown, %d error; WRONG %d'
            % (by_status['SATISFIED'], by_status['TIMEOUT'], by_status['UNKNOWN'], by_status['ERROR'], len(wrong)))
    if len(solvers) == 2:
        pairs = list(zip(results['cpsolve'], results['gecode']))
        both = [(a, b) for a, b in pairs if a['verdict'] == 'solved' and b['verdict'] == 'solved']
        if both:
            logs = [math.log(max(a['wall'], 1e-3) / max(b['wall'], 1e-3)) for a, b in both]
            faster = sum(1 for x in logs if x < 0)
            say('geometric mean of cpsolve/gecode wall time on the %d instances both solve: %.2f '
                '(above 1: cpsolve slower; cpsolve faster on %d of them; range %.2f .. %.2f)'
                % (len(both), math.exp(sum(logs) / len(logs)), faster, math.exp(min(logs)), math.exp(max(logs))))
        else:
            say('geometric mean of cpsolve/gecode wall time: no instance solved by both')
        say('solved by Gecode only: %s' % (', '.join(a['name'] for a, b in pairs
                                                       if b['verdict'] == 'solved' and a['verdict'] != 'solved') or 'none'))
        say('solved by cpsolve only: %s' % (', '.join(a['name'] for a, b in pairs
                                                        if a['verdict'] == 'solved' and b['verdict'] != 'solved') or 'none'))
    for s in solvers:
        errors = [r for r in results[s] if r['status'] == 'ERROR']
        if errors:
            say('%s errors:' % s)
            for r in errors:
                say('  %-42s %s' % (r['name'], r['reason']))
    wrong = [(s, r) for s in solvers for r in results[s] if r['verdict'] == 'wrong']
    if wrong:
        say()
        say('!' * 78)
        say('!!! %d WRONG ANSWER(S), against expected.json:' % len(wrong))
        for s, r in wrong:
            say('!!!   %-8s %-42s %s' % (s, r['name'], r['why']))
        say('!' * 78)

    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    raw = os.path.join(SCRATCH, 'results-%s.json' % now.strftime('%Y-%m-%d-%H%M%S'))
    os.makedirs(SCRATCH, exist_ok=True)
    with open(raw, 'w') as f:
        json.dump({'date': now.isoformat(), 'timeout': args.timeout, 'results': results}, f, indent=1)
    def show(path):
        rel = os.path.relpath(path, ROOT)
        return path if rel.startswith('..') else rel
    print('\nwritten to %s (every run, with nodes and times: %s)' % (show(out_path), show(raw)))
    return 1 if wrong else 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except FileNotFoundError as e:
        die(str(e))

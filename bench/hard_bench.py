#!/usr/bin/env python3
"""Hard MiniZinc instances: cpsolve beside Gecode (native globals), Pumpkin, Chuffed and Huub
(lazy clause generation), and cpsolve's own command line, one solver after the other, every
answer checked against expected.json.

Called by bench/hard.sh, which installs or prepares the solvers and passes where they are
(--solver-path, --wasm-pkg, --huub-bin, --cpsolve-cli-bin); standard library only.  FOLDER is
laid out as bench/mzn-hard/: one sub-folder per problem (model and data files) and an
expected.json listing the instances (folder, mzn, dzn, method, status, objective; see
bench/README.md).

For each instance, the solvers run one after the other, never two at once (the order rotates
from one instance to the next), flattening included.  How each is run is hard_solvers.py's job:
cpsolve, gecode and pumpkin through `minizinc` with -s --output-mode dzn --output-objective
-t MS; chuffed and huub through the WebAssembly MiniZinc 2.10; cpsolve-cli as
`cpsolve --format json --timeout S`.  Each gets -f (free search: it may ignore the model's
search annotations; --search model leaves it out; cpsolve-cli has none) and, on an
optimisation problem, its flag for every improving solution (-i, --intermediate), so the best
one found is known when the limit strikes.  One thread each.

A run proves the instance when it prints `==========` on an optimisation problem (optimum
proved), `=====UNSATISFIABLE=====`, or a first solution of a satisfaction problem.  Its answer
is checked against expected.json:
  status complete (optimum known: proved here or published): an objective better than the
    optimum, or a proved optimum that differs from it, is WRONG;
  status best_known (only a value found, not proved): a proved optimum worse than it is WRONG;
    a better value is fine (reported as "beats best known");
  status solution: UNSAT is WRONG;  status unsat: any solution is WRONG.
A WRONG answer is listed loudly at the end and makes the exit status 1.  A solution itself is
not re-checked here (MiniZinc's output checker is not run).

Options: FOLDER, --timeout S (default 60), --only NAME[,NAME...] (folder or folder/instance),
--solvers LIST (default: all six), --search free|model, --out FILE, --list, --cpsolve-bin PATH
(for the header), and where the solvers are: --solver-path, --wasm-pkg, --huub-bin,
--cpsolve-cli-bin.
"""
import argparse
import datetime
import json
import os
import signal
import subprocess
import sys

from benchlib import die, loadavg
from hard_solvers import ALL_SOLVERS, PEER_TEXT, Tools, run_solver
from minizinc_bench import fmt_obj, git_describe, instance_name, sha_and_mtime

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
SCRATCH = os.path.join(BENCH, '.scratch', 'hard')        # git-ignored (bench/.gitignore)


def judge(entry, r):
    """(proved, wrong_why, note): proved says the run answered the instance's question (optimum,
    unsatisfiability, first solution); wrong_why is '' unless the answer disagrees with
    expected.json; note is a remark (a value better than the best known)."""
    status, obj = r['status'], r['objective']
    expected, method, known = entry['status'], entry['method'], entry['objective']
    solution = status in ('OPTIMAL', 'SATISFIED')
    if status == 'UNSAT':
        if expected != 'unsat':
            return True, 'claims UNSAT; expected %s' % (expected if known is None else '%s %s' % (expected, known)), ''
        return True, '', ''
    if solution and expected == 'unsat':
        return False, 'a solution of an instance expected unsatisfiable', ''
    if not solution:
        return False, '', ''
    if method == 'satisfy':
        return True, '', ''
    if obj is None:
        return False, ('claims an optimum but printed no objective' if status == 'OPTIMAL' else ''), ''
    proved = status == 'OPTIMAL'
    if known is None:
        return proved, '', ''
    better = obj < known if method == 'minimize' else obj > known
    if expected == 'complete':
        if better:
            return proved, 'objective %d beats the known optimum %d' % (obj, known), ''
        if proved and obj != known:
            return proved, 'claims optimum %d; the optimum is %d' % (obj, known), ''
        return proved, '', ''
    # best_known: a value found somewhere, not proved optimal
    if proved and not better and obj != known:
        return proved, 'claims optimum %d, worse than the known value %d' % (obj, known), ''
    return proved, '', ('beats best known %d' % known if better else '')


def compare(method, a, b):
    """-1 if objective a is better than b, 0 if equal, 1 if worse; None objectives are worst."""
    if a is None and b is None:
        return 0
    if a is None:
        return 1
    if b is None:
        return -1
    if a == b:
        return 0
    return -1 if (a < b) == (method == 'minimize') else 1


def valid_proof(r):
    """Whether the run answered the instance's question, and rightly."""
    return r['proved'] and not r['wrong']


def best_solvers(method, runs):
    """The solvers whose objective is the best of `runs` (solver -> run), in `runs`' order; a
    WRONG answer (an objective beyond the known optimum) does not count, nor does no solution."""
    fair = {s: r['objective'] for s, r in runs.items() if r['objective'] is not None and not r['wrong']}
    if not fair:
        return []
    best = min(fair.values()) if method == 'minimize' else max(fair.values())
    return [s for s, v in fair.items() if v == best]


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('folder', help='the instance folder (with expected.json)')
    ap.add_argument('--solver-path', default=os.environ.get('MZN_SOLVER_PATH', ''),
                    help='MZN_SOLVER_PATH for the solvers (bench/hard.sh sets it)')
    ap.add_argument('--cpsolve-bin', default='', help='the fzn-cpsolve the configuration runs (for the header)')
    ap.add_argument('--wasm-pkg', default='', help='the WebAssembly MiniZinc (chuffed, huub): bench/peers/chuffed.sh')
    ap.add_argument('--huub-bin', default='', help='the huub binary: bench/peers/huub.sh')
    ap.add_argument('--cpsolve-cli-bin', default='', help='the cpsolve binary cpsolve-cli runs')
    ap.add_argument('--timeout', type=float, default=60, help='seconds per instance and solver (default 60)')
    ap.add_argument('--only', default='', help='comma-separated folders or folder/instance names')
    ap.add_argument('--solvers', default=','.join(ALL_SOLVERS), help='comma-separated, of ' + ', '.join(ALL_SOLVERS))
    ap.add_argument('--out', default='', help='the results file (default: bench/results-hard-DATE.txt, '
                    'or bench/.scratch/hard/results-hard-DATE-only.txt with --only)')
    ap.add_argument('--search', choices=('free', 'model'), default='free',
                    help="free: -f for every solver (default); model: no -f, each solver follows the model's "
                    'search annotations (if it can)')
    ap.add_argument('--list', action='store_true', help='list the instances and exit')
    args = ap.parse_args()
    free = args.search == 'free'
    corpus = os.path.abspath(args.folder)
    entries = json.load(open(os.path.join(corpus, 'expected.json')))
    if args.list:
        for e in entries:
            print('%-45s %-9s %-10s %s' % (instance_name(e), e['method'], e['status'], fmt_obj(e['objective'])))
        return 0
    if args.timeout <= 0:
        ap.error('--timeout must be positive')
    solvers = [s.strip() for s in args.solvers.split(',') if s.strip()]
    unknown = [s for s in solvers if s not in ALL_SOLVERS]
    if unknown or not solvers:
        ap.error('--solvers: pick from %s' % ', '.join(ALL_SOLVERS))
    if args.only:
        names = [n.strip().rstrip('/') for n in args.only.split(',') if n.strip()]
        unknown = [n for n in names if not any(n in (e['folder'], instance_name(e)) for e in entries)]
        if unknown:
            ap.error('unknown instance(s) %s (see --list)' % ', '.join(unknown))
        entries = [e for e in entries if e['folder'] in names or instance_name(e) in names]

    now = datetime.datetime.now(datetime.timezone.utc)
    out_path = args.out or (os.path.join(SCRATCH, 'results-hard-%s-only.txt' % now.date()) if args.only
                            else os.path.join(BENCH, 'results-hard-%s.txt' % now.date()))
    lines = []

    def say(text=''):
        print(text, flush=True)
        lines.append(text)

    def show(path):
        rel = os.path.relpath(path, ROOT)
        return path if rel.startswith('..') else rel

    # A folder outside the repository is named by its last component only: results files are
    # committed, and they must not point outside the repository.
    rel = os.path.relpath(corpus, ROOT)
    corpus_name = rel if not rel.startswith('..') else '%s/ (a folder outside the repository)' % os.path.basename(corpus)

    cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), '?')
    mem = next((l.split()[1] for l in open('/proc/meminfo') if l.startswith('MemTotal')), '0')
    mzn = subprocess.run(['minizinc', '--version'], capture_output=True, text=True).stdout.splitlines()
    say('# Hard MiniZinc instances, %s; %d instances of %s, timeout %g s per instance and solver'
        % (now.strftime('%Y-%m-%d %H:%M:%S UTC'), len(entries), corpus_name, args.timeout))
    say('# machine: %d cores (nproc), %s, %.1f GB RAM; load average (1, 5, 15 min) at start: %s'
        % (os.cpu_count(), cpu, int(mem) / 1024 / 1024, loadavg()))
    say('# %s; flags through minizinc: -s --output-mode dzn --output-objective -t %d%s, and -i on optimisation'
        % (mzn[0] if mzn else 'minizinc ?', args.timeout * 1000,
           ' -f (free search)' if free else " (no -f: the model's search annotations)"))
    if {'chuffed', 'huub'} & set(solvers):
        say('# chuffed and huub: the same limit (flattening included), %s, and every improving solution'
            % ('-f (free search)' if free else "no -f (the model's search annotations)"))
    say('# one solver after the other, never two at once (order rotates per instance); one thread each')
    for name, binary, label in (('cpsolve', args.cpsolve_bin, 'fzn-cpsolve'),
                                ('cpsolve-cli', args.cpsolve_cli_bin, 'cpsolve')):
        if name in solvers:
            sha, mtime = sha_and_mtime(binary) if binary else (None, None)
            say('# %s: %s %s, git %s' % (
                name, label, 'sha256 %s, built %s' % (sha, mtime) if sha else '(binary missing: every run is an ERROR)',
                git_describe()))
    for s in solvers:
        if s in PEER_TEXT:
            say('# %s: %s' % (s, PEER_TEXT[s]))
    say('# per solver: status (OPTIMAL = optimum proved / search complete, SATISFIED = a solution, not proved')
    say('# optimal, UNSAT, TIMEOUT, UNKNOWN, ERROR), best objective, wall s of the whole run (minizinc, node, cpsolve);')
    say('# "P" = proved (optimum, unsat or first solution of a satisfaction problem), WRONG = disagrees with expected.json')
    head = '%-36s %-13s' % ('instance', 'expected') + ''.join(' | %-27s' % s for s in solvers) + ' | load1'
    say(head)
    say('-' * len(head))

    tools = Tools(args.solver_path, args.wasm_pkg, args.huub_bin, args.cpsolve_cli_bin)
    results = {s: [] for s in solvers}
    for i, e in enumerate(entries):
        load1 = loadavg().split()[0]
        k = i % len(solvers)
        order = solvers[k:] + solvers[:k]
        row = {}
        for s in order:
            r = run_solver(s, tools, e, args.timeout, corpus, free)
            r['proved'], r['wrong'], r['note'] = judge(e, r)
            r['name'] = instance_name(e)
            r['order'] = order.index(s) + 1
            row[s] = r
            results[s].append(r)
        expected = {'unsat': 'unsat', 'solution': 'sat', 'best_known': 'best %s' % fmt_obj(e['objective'])}.get(
            e['status'], 'opt %s' % fmt_obj(e['objective']))
        cells = []
        for s in solvers:
            r = row[s]
            mark = ' WRONG' if r['wrong'] else (' P' if r['proved'] else '')
            cells.append(' | %-9s %7s %6.1f%s' % (r['status'], fmt_obj(r['objective']), r['wall'], mark))
        say('%-36s %-13s' % (instance_name(e), expected) + ''.join('%-30s' % c for c in cells) + ' | ' + load1)
    say('# load average at end: %s' % loadavg())

    # ------------------------------------------------------------------ summary
    say()
    n = len(entries)
    for s in solvers:
        rs = results[s]
        proved = [r for r in rs if valid_proof(r)]
        times = sorted(r['wall'] for r in proved)
        say('%-11s proved %2d of %d%s; not proved: %d with a solution, %d without, %d error; WRONG %d'
            % (s, len(proved), n,
               ' (time to prove: median %.1f s, max %.1f s)' % (times[len(times) // 2], times[-1]) if times else '',
               sum(1 for r in rs if not r['proved'] and r['status'] == 'SATISFIED'),
               sum(1 for r in rs if not r['proved'] and r['status'] in ('TIMEOUT', 'UNKNOWN')),
               sum(1 for r in rs if r['status'] == 'ERROR'), sum(1 for r in rs if r['wrong'])))
    count = {s: sum(1 for r in results[s] if valid_proof(r)) for s in solvers}
    if 'cpsolve' in solvers and 'gecode' in solvers:
        say('ratio cpsolve / gecode proved: %s' % ('%.2f' % (count['cpsolve'] / count['gecode'])
                                                   if count['gecode'] else 'n/a (Gecode proved none)'))
    for peer in ('pumpkin', 'chuffed', 'huub'):
        if 'cpsolve' in solvers and peer in solvers:
            say('cpsolve proved %s %s (%d vs %d)' % (
                'more than' if count['cpsolve'] > count[peer] else 'as many as' if count['cpsolve'] == count[peer]
                else 'fewer than', peer, count['cpsolve'], count[peer]))
    if 'cpsolve' in solvers and 'cpsolve-cli' in solvers:
        same = [i for i in range(n) if all(results['cpsolve'][i][k] == results['cpsolve-cli'][i][k]
                                           for k in ('status', 'objective'))]
        say('cpsolve-cli and cpsolve (fzn-cpsolve through minizinc%s): the same status and objective on %d of %d'
            % (', which searches freely' if free else '', len(same), n))
    # Best objectives where nobody proved the optimum: the criterion's "on the instances none proves".
    opt = [i for i, e in enumerate(entries) if e['method'] != 'satisfy']
    none = [i for i in opt if not any(valid_proof(results[s][i]) for s in solvers)]
    say()
    say('%-11s %8s  %s' % ('solver', 'proved', 'best objective on the %d optimisation instance(s) none proves '
                           '(ties count for each)' % len(none)))
    best_by = {i: best_solvers(entries[i]['method'], {s: results[s][i] for s in solvers}) for i in none}
    for s in solvers:
        say('%-11s %8s  %d of %d' % (s, '%d/%d' % (count[s], n), sum(1 for i in none if s in best_by[i]), len(none)))
    for i in none:
        best = best_by[i]
        say('    %-36s best %s by %s;  %s' % (
            instance_name(entries[i]), fmt_obj(results[best[0]][i]['objective']) if best else '-',
            ', '.join(best) if best else 'nobody (no solution)',
            '  '.join('%s %s' % (s, fmt_obj(results[s][i]['objective'])) for s in solvers)))
    not_cp = [i for i in opt if 'cpsolve' in solvers and not results['cpsolve'][i]['proved']]
    if 'cpsolve' in solvers:
        for label, idx in (('none of the solvers proves', none), ('cpsolve does not prove', not_cp)):
            if not idx:
                say('best objective on optimisation instances %s: no such instance' % label)
                continue
            say('best objective on the %d optimisation instance(s) %s:' % (len(idx), label))
            for peer in (p for p in solvers if p != 'cpsolve'):
                c = [compare(entries[i]['method'], results['cpsolve'][i]['objective'], results[peer][i]['objective'])
                     for i in idx]
                say('    cpsolve vs %-11s better %d, equal %d, worse %d  (at least as good on %d of %d)'
                    % (peer, c.count(-1), c.count(0), c.count(1), c.count(-1) + c.count(0), len(c)))
            if label != 'none of the solvers proves':
                for i in idx:
                    say('    %-36s %s' % (instance_name(entries[i]), '  '.join(
                        '%s %s' % (s, fmt_obj(results[s][i]['objective'])) for s in solvers)))
    notes = [(s, r) for s in solvers for r in results[s] if r['note']]
    for s, r in notes:
        say('note: %-11s %-36s %s' % (s, r['name'], r['note']))
    for s in solvers:
        errors = [r for r in results[s] if r['status'] == 'ERROR']
        if errors:
            say('%s errors:' % s)
            for r in errors:
                say('  %-36s %s' % (r['name'], r['reason']))
    wrong = [(s, r) for s in solvers for r in results[s] if r['wrong']]
    if wrong:
        say()
        say('!' * 78)
        say('!!! %d WRONG ANSWER(S), against expected.json:' % len(wrong))
        for s, r in wrong:
            say('!!!   %-11s %-36s %s' % (s, r['name'], r['wrong']))
        say('!' * 78)

    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    raw = os.path.join(SCRATCH, 'results-%s.json' % now.strftime('%Y-%m-%d-%H%M%S'))
    os.makedirs(SCRATCH, exist_ok=True)
    with open(raw, 'w') as f:
        json.dump({'date': now.isoformat(), 'folder': corpus, 'timeout': args.timeout, 'results': results},
                  f, indent=1)
    print('\nwritten to %s (every run, with nodes and times: %s)' % (show(out_path), show(raw)))
    return 1 if wrong else 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except FileNotFoundError as e:
        die(str(e))

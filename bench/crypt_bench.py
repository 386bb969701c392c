#!/usr/bin/env python3
"""Cryptarithm benchmark: cpsolve vs GNU Prolog and OR-Tools CP-SAT on tests/corpus/cryptarithm/*.puz.

Called by bench/crypt.sh (which builds cpsolve first); standard library only.
Two modes:
  default         cpsolve (one process, all 40 puzzles, all solutions) beside a GNU Prolog
                  executable for the same 40 puzzles and, when bench/setup.sh has installed
                  it in bench/.venv, OR-Tools CP-SAT (one Python process), plus process
                  start-up floors.
  --formulations  cpsolve's `option model = columns` (default) vs `option model = equation`.
Every figure is checked first: cpsolve's counts against answers.tsv (and the peers' full
solution sets against cpsolve's); any mismatch stops the benchmark with exit status 1.
"""
import argparse
import datetime
import glob
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

from benchlib import die, loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
SCRATCH = os.path.join(BENCH, '.scratch')          # git-ignored (bench/.gitignore)
CORPUS_REL = os.path.join('tests', 'corpus', 'cryptarithm')


# ------------------------------------------------------------------ small helpers
def run_capture(argv, cwd=None):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def timed_run(argv, cwd):
    """Wall ms (spawn to reap) and CPU ms (user+sys of the child) of one process, with
    stdout/stderr sent to /dev/null.  posix_spawn + wait4: the smallest overhead we can get
    from Python, and the same for every tool (see the /bin/true floor)."""
    path = argv[0] if os.sep in argv[0] else shutil.which(argv[0])
    acts = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
    old = os.getcwd()
    os.chdir(cwd)
    try:
        t0 = time.perf_counter_ns()
        pid = os.posix_spawn(path, argv, os.environ, file_actions=acts)
        _, status, ru = os.wait4(pid, 0)
        t1 = time.perf_counter_ns()
    finally:
        os.chdir(old)
    rc = os.waitstatus_to_exitcode(status)
    return (t1 - t0) / 1e6, (ru.ru_utime + ru.ru_stime) * 1e3, rc


def time_commands(cmds, runs, warmup, cwd):
    """cmds: list of (name, argv, ok_rcs).  Runs are interleaved round by round (the order
    rotates each round) so that a change in machine load hits every command alike."""
    res = {name: {'wall': [], 'cpu': []} for name, _, _ in cmds}
    for r in range(warmup + runs):
        k = r % len(cmds)
        for name, argv, ok in cmds[k:] + cmds[:k]:
            w, c, rc = timed_run(argv, cwd)
            if rc not in ok:
                code, out, err = run_capture(argv, cwd)
                die('%s exited with status %d (expected %s)\n  command: %s\n  stderr: %s'
                    % (name, rc, ok, ' '.join(argv), err.strip()[:2000]))
            if r >= warmup:
                res[name]['wall'].append(w)
                res[name]['cpu'].append(c)
    return res


def med(xs):
    return statistics.median(xs)


# ------------------------------------------------------------------ corpus and answers
TERM_RE = re.compile(r'^(?:(\d+)\.)?([A-Z]+)$')


def puz_text(path):
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith('cryptarithm'):
                return s[len('cryptarithm'):].strip()
    die('%s has no `cryptarithm` line' % path)


def check_solution(text, sol):
    """True iff sol (letter -> digit) solves text under the corpus rules."""
    lhs, rhs = text.split('=')
    words, total = [], 0

    def val(w):
        v = 0
        for ch in w:
            v = 10 * v + sol[ch]
        return v
    try:
        for t in lhs.split('+'):
            if t.isdigit():
                total += int(t)
                continue
            m = TERM_RE.match(t)
            total += int(m.group(1) or 1) * val(m.group(2))
            words.append(m.group(2))
        words.append(rhs)
        letters = {ch for w in words for ch in w}
        if set(sol) != letters or len(set(sol.values())) != len(sol):
            return False
        if any(not 0 <= v <= 9 for v in sol.values()):
            return False
        if any(len(w) > 1 and sol[w[0]] == 0 for w in words):
            return False
        return total == val(rhs)
    except (KeyError, AttributeError):
        return False


def load_answers(root):
    path = os.path.join(root, CORPUS_REL, 'answers.tsv')
    ans = {}
    with open(path) as f:
        header = f.readline().rstrip('\n').split('\t')
        if header[:2] != ['puzzle', 'solutions']:
            die('unexpected header in %s: %r' % (path, header))
        for line in f:
            if not line.strip():
                continue
            c = line.rstrip('\n').split('\t')
            one = dict((kv.split('=')[0], int(kv.split('=')[1])) for kv in c[2].split()) if len(c) > 2 else None
            ans[c[0]] = (int(c[1]), one)
    return ans


def corpus(root, answers):
    files = sorted(glob.glob(os.path.join(root, CORPUS_REL, '*.puz')))
    rel = [os.path.relpath(f, root) for f in files]
    texts = {r: puz_text(os.path.join(root, r)) for r in rel}
    missing = [t for t in texts.values() if t not in answers]
    if missing:
        die('puzzles without a line in answers.tsv: %s' % missing)
    if len(rel) != len(answers):
        die('%d .puz files but %d answers' % (len(rel), len(answers)))
    return rel, texts


def parse_cpsolve_json(out, label):
    res = {}
    for line in out.splitlines():
        if line.strip():
            try:
                o = json.loads(line)
            except json.JSONDecodeError as e:
                die('%s: not JSON: %r (%s)' % (label, line[:200], e))
            res[o['file']] = o
    return res


def verify_cpsolve(objs, files, texts, answers, label):
    """Counts vs answers.tsv, plus: every solution checked arithmetically, no duplicates,
    the solution listed in answers.tsv is among them.  Returns {text: set of solutions}."""
    bad, sets, total = [], {}, 0
    for f in files:
        t = texts[f]
        want, one = answers[t]
        o = objs.get(f)
        if o is None:
            bad.append('%s: no output for %s' % (t, f))
            continue
        sols = o.get('solutions', [])
        got = o.get('count')
        total += got if isinstance(got, int) else 0
        s = {tuple(sorted(x.items())) for x in sols}
        if o.get('status') != 'solved':
            bad.append('%s: status %r' % (t, o.get('status')))
        if got != want:
            bad.append('%s: count %s, answers.tsv says %d' % (t, got, want))
        if len(sols) != got or len(s) != len(sols):
            bad.append('%s: %d solutions printed for count %s (%d distinct)' % (t, len(sols), got, len(s)))
        wrong = [x for x in sols if not check_solution(t, x)]
        if wrong:
            bad.append('%s: %d printed solutions are wrong, e.g. %s' % (t, len(wrong), wrong[0]))
        if one and tuple(sorted(one.items())) not in s:
            bad.append('%s: the solution in answers.tsv (%s) is missing' % (t, one))
        sets[t] = s
    want_total = sum(answers[texts[f]][0] for f in files)
    if bad:
        die('%s disagrees with answers.tsv:\n  ' % label + '\n  '.join(bad))
    print('   %s: %d puzzles, %d solutions, all match answers.tsv and check arithmetically'
          % (label, len(files), total))
    if total != want_total:
        die('%s: %d solutions in all, expected %d' % (label, total, want_total))
    return sets


def cpsolve_stats(root, cp, files, texts, label, extra=()):
    rc, out, err = run_capture([cp, '--all', '--stats', '--format', 'json', *extra, *files], cwd=root)
    if rc != 0:
        die('%s --stats run exited %d: %s' % (label, rc, err.strip()[:2000]))
    objs = parse_cpsolve_json(out, label)
    per = {}
    for f in files:
        st = objs.get(f, {}).get('stats')
        if not st or 'time_ms' not in st:
            die('%s: no stats.time_ms for %s' % (label, f))
        per[texts[f]] = st
    return objs, per


# ------------------------------------------------------------------ GNU Prolog peer
def setup_gprolog(args, root, files, texts):
    """Generate the GNU Prolog program with the peers' own generator (gen_crypt.py +
    cryptlib.py, copied to the scratch dir since the peers' dir is read-only) and compile
    it with gplc --no-top-level, exactly as the peers' run_all.sh does.  crypt.txt is
    written from the corpus (same order as the .puz files) so both tools see the same 40."""
    gplc = shutil.which('gplc')
    if not gplc:
        print('\n!! GNU Prolog (gplc) is not installed: the peer is skipped.')
        print('!! Install it with:   apt-get install gprolog   (Debian/Ubuntu, as root)')
        print('!! or re-run:         bench/crypt.sh --install-peers\n')
        return None
    src = [os.path.join(args.peers, n) for n in ('gen_crypt.py', 'cryptlib.py')]
    for s in src:
        if not os.path.isfile(s):
            die('%s not found: the GNU Prolog program is generated by the peers\' own generator '
                '(pass --peers DIR)' % s)
    d = os.path.join(SCRATCH, 'gprolog')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for s in src:
        shutil.copy(s, d)
    lines = [texts[f] for f in files]
    with open(os.path.join(d, 'crypt.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    peers_txt = os.path.join(args.peers, 'crypt.txt')
    if os.path.isfile(peers_txt):
        with open(peers_txt) as f:
            theirs = {l.strip() for l in f if l.strip() and not l.startswith('#')}
        if theirs != set(lines):
            print('   note: the peers\' crypt.txt differs from the corpus; using the corpus')
    rc, out, err = run_capture([sys.executable, 'gen_crypt.py'], cwd=d)
    if rc != 0:
        die('gen_crypt.py failed: %s' % err.strip()[:2000])
    gen = os.path.join(d, 'gen')
    t0 = time.perf_counter()
    rc, out, err = run_capture([gplc, '--no-top-level', '-o', 'crypt_gp', 'crypt_gp.pl'], cwd=gen)
    if rc != 0:
        die('gplc failed on %s/crypt_gp.pl:\n%s%s' % (gen, out, err))
    exe = os.path.join(gen, 'crypt_gp')
    _, vo, ve = run_capture([gplc, '--version'])       # gplc prints its version on stderr
    ver = ((vo + ve).strip().splitlines() or ['gplc version unknown'])[0]
    print('   generated %s/crypt_gp.pl with the peers\' gen_crypt.py, compiled with '
          '`gplc --no-top-level` in %.1f s (%s)' % (os.path.relpath(gen, root), time.perf_counter() - t0, ver))
    return exe, lines, ver


def verify_peer(label, argv, lines, answers, cp_sets):
    """Checks a peer program that takes the peers' two modes: `once` prints per puzzle
    `index, text, count, ...`, and `all` prints every solution as `index, A=1 B=2 ...`.  Its
    counts must match answers.tsv and its solution sets cpsolve's.  Returns `once`'s output."""
    rc, once, err = run_capture(argv + ['once'])
    if rc != 0:
        die('%s once exited %d: %s' % (label, rc, err))
    bad, n = [], 0
    for row in once.splitlines():
        if row.startswith('#'):          # crypt_cpsat.py's timing line
            continue
        c = row.split('\t')
        i, text, cnt = int(c[0]), c[1], int(c[2])
        n += 1
        if text != lines[i - 1]:
            bad.append('puzzle %d is %r, expected %r' % (i, text, lines[i - 1]))
        elif cnt != answers[text][0]:
            bad.append('%s: %s counts %d, answers.tsv says %d' % (text, label, cnt, answers[text][0]))
    if n != len(lines):
        bad.append('%s once printed %d puzzles, expected %d' % (label, n, len(lines)))
    # full solution sets, compared with cpsolve's
    rc, out, err = run_capture(argv + ['all'])
    if rc != 0:
        die('%s all exited %d: %s' % (label, rc, err))
    sets = {t: set() for t in lines}
    for row in out.splitlines():
        i, sol = row.split('\t')
        sets[lines[int(i) - 1]].add(tuple(sorted((kv.split('=')[0], int(kv.split('=')[1])) for kv in sol.split())))
    for t in lines:
        if sets[t] != cp_sets[t]:
            bad.append('%s: %s and cpsolve print different solution sets (%d vs %d)'
                       % (t, label, len(sets[t]), len(cp_sets[t])))
    if bad:
        die('%s output disagrees:\n  ' % label + '\n  '.join(bad))
    print('   %s: %d puzzles, %d solutions, counts match answers.tsv, solution sets equal cpsolve\'s'
          % (label, len(lines), sum(len(v) for v in sets.values())))
    return once


def gprolog_inproc_ms(exe):
    """crypt_gp bench: per puzzle, one full enumeration repeated until >= 200 ms, real_time
    (1 ms resolution, amortised over the repetitions); returns the sum of the 40 means."""
    rc, out, err = run_capture([exe, 'bench'])
    if rc != 0:
        die('crypt_gp bench exited %d: %s' % (rc, err))
    return sum(float(r.split('\t')[3]) for r in out.splitlines() if r.strip()) / 1000.0


# ------------------------------------------------------------------ OR-Tools CP-SAT peer
def setup_cpsat(args, files, texts):
    """The peers' crypt_cpsat.py (bench/peers/ortools/) with their cryptlib.py and a
    crypt.txt written from the corpus, copied to the scratch dir, run by the Python of
    bench/.venv, where bench/setup.sh installs the pinned OR-Tools.  None when it is missing."""
    py = os.path.join(BENCH, '.venv', 'bin', 'python')
    if not os.access(py, os.X_OK):
        print('\n!! bench/.venv is missing: the OR-Tools CP-SAT peer is skipped (bench/setup.sh makes it)\n')
        return None
    rc, ver, err = run_capture([py, '-c', 'import ortools; print(ortools.__version__)'])
    if rc != 0:
        print('\n!! OR-Tools is not installed in bench/.venv: the CP-SAT peer is skipped '
              '(bench/setup.sh installs it)\n')
        return None
    d = os.path.join(SCRATCH, 'cpsat')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for s in (os.path.join(BENCH, 'peers', 'ortools', 'crypt_cpsat.py'), os.path.join(args.peers, 'cryptlib.py')):
        if not os.path.isfile(s):
            die('%s not found' % s)
        shutil.copy(s, d)
    with open(os.path.join(d, 'crypt.txt'), 'w') as out:
        out.write('\n'.join(texts[f] for f in files) + '\n')
    ver = 'OR-Tools ' + ver.strip()
    print('   CP-SAT: the peers\' crypt_cpsat.py (1 worker, all solutions) under bench/.venv (%s)' % ver)
    return [py, os.path.join(d, 'crypt_cpsat.py')], ver


def cpsat_inproc_ms(once):
    """crypt_cpsat.py's own figure: model build + solve of the 40 puzzles (perf_counter),
    without the Python start and the `ortools` import; and the import time."""
    for row in once.splitlines():
        if row.startswith('#import_s'):
            c = row.split('\t')
            return float(c[3]) * 1e3, float(c[1]) * 1e3
    die('crypt_cpsat.py once printed no #import_s line')


# ------------------------------------------------------------------ output
def header(args, root, cp):
    print('== cryptarithm benchmark   %s' % datetime.datetime.now().strftime('%Y-%m-%d %H:%M:%S %Z').strip())
    cpu = ''
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next((l.split(':', 1)[1].strip() for l in f if l.startswith('model name')), '')
    except OSError:
        pass
    print('   machine: %d cores %s, %s' % (os.cpu_count(), cpu, platform.platform()))
    rev = run_capture(['git', 'rev-parse', '--short', 'HEAD'], cwd=root)[1].strip() or '?'
    dirty = run_capture(['git', 'status', '--porcelain', '--untracked-files=no'], cwd=root)[1].strip()
    print('   cpsolve: target/release/cpsolve built %s, sha256 %s, git %s%s; timed as the copy %s'
          % (args.cp_mtime, args.cp_sha, rev, ' + uncommitted changes' if dirty else '', os.path.relpath(cp, root)))
    print('   runs: %d timed (+%d warm-up) per command, interleaved; stdout to /dev/null' % (args.runs, args.warmup))
    print('   load average before: %s   (shared machine: other jobs, e.g. compilations, may be running)'
          % loadavg())


def row(name, t, inproc):
    w = t['wall']
    print('%-38s %10.2f %10.2f %10.2f  %s' % (name, med(w), min(w), med(t['cpu']), inproc))


def table_head(title):
    print('\n' + title)
    print('%-38s %10s %10s %10s  %s' % ('tool', 'median ms', 'min ms', 'cpu ms', 'in-process ms'))
    print('-' * 100)


# ------------------------------------------------------------------ modes
def mode_peers(args, root, cp, files, texts, answers):
    print('\n== checking')
    rc, out, err = run_capture([cp, '--all', '--format', 'json', *files], cwd=root)
    if rc != 0:
        die('cpsolve exited %d: %s' % (rc, err.strip()[:2000]))
    cp_sets = verify_cpsolve(parse_cpsolve_json(out, 'cpsolve'), files, texts, answers, 'cpsolve')
    _, st = cpsolve_stats(root, cp, files, texts, 'cpsolve')
    cp_inproc = sum(s['time_ms'] for s in st.values())
    cp_nodes = sum(s.get('nodes', 0) for s in st.values())

    gp = setup_gprolog(args, root, files, texts)
    gp_inproc = None
    if gp:
        exe, lines, gp_ver = gp
        verify_peer('GNU Prolog', [exe], lines, answers, cp_sets)
        if not args.no_gp_inproc:
            print('   gprolog in-process timing (`crypt_gp bench`, each puzzle repeated >= 200 ms) ...', flush=True)
            gp_inproc = gprolog_inproc_ms(exe)
    sat = None if args.no_cpsat else setup_cpsat(args, files, texts)
    if sat:
        sat_argv, sat_ver = sat
        sat_once = verify_peer('CP-SAT', sat_argv, [texts[f] for f in files], answers, cp_sets)

    cmds = [('cpsolve', [cp, '--all', '--format', 'json', *files], (0,)),
            ('cpsolve-e', [cp, '-e', 'cryptarithm A+B=C'], (0,)),
            ('true', ['/bin/true'], (0,))]
    if gp:
        cmds += [('gprolog', [exe, 'once'], (0,)),
                 ('gprolog-usage', [exe], (0,))]
    if sat:
        cmds += [('cpsat', sat_argv + ['once'], (0,))]
    print('\n== timing %d commands x %d runs ...' % (len(cmds), args.runs), flush=True)
    load_before = loadavg()
    t = time_commands(cmds, args.runs, args.warmup, root)
    load_after = loadavg()

    table_head('== all 40 puzzles, all solutions, one process  (wall = spawn to exit; cpu = user+sys)')
    row('cpsolve --all (40 files, 1 process)', t['cpsolve'],
        '%.3f (sum of stats.time_ms, 1 run; %d nodes)' % (cp_inproc, cp_nodes))
    if gp:
        row('GNU Prolog crypt_gp once', t['gprolog'],
            'n/a' if gp_inproc is None else '%.3f (crypt_gp bench: sum of per-puzzle means)' % gp_inproc)
        rm = med(t['gprolog']['wall']) / med(t['cpsolve']['wall'])
        rmin = min(t['gprolog']['wall']) / min(t['cpsolve']['wall'])
        print('\nratio gprolog median / cpsolve median = %.2f   (min / min = %.2f; > 1 means cpsolve is faster)'
              % (rm, rmin))
        if gp_inproc:
            print('ratio in-process gprolog / cpsolve     = %.2f' % (gp_inproc / cp_inproc))
    else:
        print('\nratio: n/a (GNU Prolog not installed: apt-get install gprolog, or --install-peers)')
    if sat:
        sat_inproc, sat_import = cpsat_inproc_ms(sat_once)
        print()
        row('OR-Tools CP-SAT crypt_cpsat.py once', t['cpsat'],
            '%.3f (build + solve, 1 run; `import ortools` %.0f ms more)' % (sat_inproc, sat_import))
        print('ratio CP-SAT median / cpsolve median = %.2f   (in-process: %.2f)'
              % (med(t['cpsat']['wall']) / med(t['cpsolve']['wall']), sat_inproc / cp_inproc))

    table_head('== process start-up floor')
    row('/bin/true', t['true'], '')
    row("cpsolve -e 'cryptarithm A+B=C'", t['cpsolve-e'], '')
    if gp:
        row('crypt_gp (no argument: usage only)', t['gprolog-usage'], '')
    net_cp = med(t['cpsolve']['wall']) - med(t['cpsolve-e']['wall'])
    print('\ncpsolve median minus its start-up floor: %.2f ms' % net_cp, end='')
    if gp:
        net_gp = med(t['gprolog']['wall']) - med(t['gprolog-usage']['wall'])
        print('; gprolog: %.2f ms' % net_gp, end='')
    print()
    print('load average: before %s, after %s' % (load_before, load_after))


def mode_formulations(args, root, cp, files, texts, answers):
    d = os.path.join(SCRATCH, 'equation')
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    eq_files, eq_texts = [], {}
    for f in files:
        with open(os.path.join(root, f)) as fh:
            s = fh.read()
        if re.search(r'^\s*option\s+model\b', s, re.M):
            die('%s already sets `option model`' % f)
        dst = os.path.join(d, os.path.basename(f))
        with open(dst, 'w') as fh:
            fh.write(s + ('' if s.endswith('\n') else '\n') + 'option model = equation\n')
        r = os.path.relpath(dst, root)
        eq_files.append(r)
        eq_texts[r] = texts[f]
    forms = [('columns', files, texts), ('equation', eq_files, eq_texts)]

    print('\n== checking (originals = `columns`, the default; copies with `option model = equation` in %s)'
          % os.path.relpath(d, root))
    for name, fs, ts in forms:
        rc, out, err = run_capture([cp, '--all', '--format', 'json', *fs], cwd=root)
        if rc != 0:
            die('cpsolve (%s) exited %d: %s' % (name, rc, err.strip()[:2000]))
        verify_cpsolve(parse_cpsolve_json(out, name), fs, ts, answers, 'cpsolve, model = %s' % name)

    print('\n== %d --stats runs and %d timed runs per formulation ...' % (args.runs, args.runs), flush=True)
    load_before = loadavg()
    stats = {name: [] for name, _, _ in forms}
    for r in range(args.runs):
        for name, fs, ts in (forms if r % 2 == 0 else forms[::-1]):
            stats[name].append(cpsolve_stats(root, cp, fs, ts, name)[1])
    for name in stats:        # search is deterministic: nodes must not change between runs
        for k in ('nodes', 'failures'):
            if len({tuple(s[t].get(k) for t in sorted(s)) for s in stats[name]}) != 1:
                die('%s: %s differ between identical runs' % (name, k))
    t = time_commands([(name, [cp, '--all', '--format', 'json', *fs], (0,)) for name, fs, _ in forms],
                      args.runs, args.warmup, root)
    load_after = loadavg()

    lines = [texts[f] for f in files]
    per_ms = {name: {p: med([s[p]['time_ms'] for s in stats[name]]) for p in lines} for name in stats}
    first = {name: stats[name][0] for name in stats}
    print('\n== per puzzle (nodes and failures: exact; ms: median in-process stats.time_ms)')
    print('%-38s %4s %9s %9s %9s %9s %8s %8s' % ('puzzle', 'sols', 'nodes col', 'nodes eq',
                                                 'fails col', 'fails eq', 'ms col', 'ms eq'))
    for p in lines:
        c, e = first['columns'][p], first['equation'][p]
        print('%-38s %4d %9d %9d %9d %9d %8.3f %8.3f' % (
            p[:38], answers[p][0], c['nodes'], e['nodes'], c['failures'], e['failures'],
            per_ms['columns'][p], per_ms['equation'][p]))

    print('\n== totals over the 40 puzzles')
    print('%-10s %10s %10s %12s %14s %14s %12s %12s' % ('model', 'nodes', 'failures', 'propagations',
          'in-proc med ms', 'in-proc min ms', 'wall med ms', 'wall min ms'))
    tot = {}
    for name in stats:
        sums = [sum(s[p]['time_ms'] for p in lines) for s in stats[name]]
        f0 = first[name]
        tot[name] = (sum(f0[p]['nodes'] for p in lines), med(sums), med(t[name]['wall']))
        print('%-10s %10d %10d %12d %14.3f %14.3f %12.2f %12.2f' % (
            name, tot[name][0], sum(f0[p]['failures'] for p in lines),
            sum(f0[p].get('propagations', 0) for p in lines), med(sums), min(sums),
            med(t[name]['wall']), min(t[name]['wall'])))
    c, e = tot['columns'], tot['equation']
    print('\nequation / columns: nodes %.2f, in-process time %.2f, wall %.2f'
          % (e[0] / c[0], e[1] / c[1], e[2] / c[2]))
    print('load average: before %s, after %s' % (load_before, load_after))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--root', default=os.path.dirname(BENCH), help='repository root')
    ap.add_argument('--runs', type=int, default=21, help='timed runs per command (default 21)')
    ap.add_argument('--warmup', type=int, default=2, help='untimed runs first (default 2)')
    ap.add_argument('--formulations', action='store_true', help='compare model = columns / equation')
    ap.add_argument('--no-gp-inproc', action='store_true', help="skip GNU Prolog's own timing")
    ap.add_argument('--no-cpsat', action='store_true', help='skip the OR-Tools CP-SAT peer')
    ap.add_argument('--peers', default=os.path.join(BENCH, 'peers', 'gprolog'),
                    help='directory with the peers\' gen_crypt.py and cryptlib.py')
    args = ap.parse_args()
    if args.runs < 1 or args.warmup < 0:
        ap.error('--runs must be >= 1 and --warmup >= 0')
    root = os.path.abspath(args.root)
    cp = os.path.join(root, 'target', 'release', 'cpsolve')
    if not os.access(cp, os.X_OK):
        die('%s not found (run bench/crypt.sh, which builds it)' % cp)
    # Snapshot the binary: target/ is shared with other engineers, whose builds may replace
    # target/release/cpsolve in the middle of a run.  Every figure below comes from this copy.
    os.makedirs(SCRATCH, exist_ok=True)
    snap = os.path.join(SCRATCH, 'cpsolve')
    shutil.copy2(cp, snap + '.tmp')
    os.replace(snap + '.tmp', snap)
    with open(snap, 'rb') as f:
        args.cp_sha = hashlib.sha256(f.read()).hexdigest()[:12]
    args.cp_mtime = datetime.datetime.fromtimestamp(os.path.getmtime(cp)).strftime('%Y-%m-%d %H:%M:%S')
    cp = snap
    answers = load_answers(root)
    files, texts = corpus(root, answers)
    header(args, root, cp)
    if args.formulations:
        mode_formulations(args, root, cp, files, texts, answers)
    else:
        mode_peers(args, root, cp, files, texts, answers)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""N-queens benchmark: cpsolve beside the peers kept in bench/peers/queens/.

Called by bench/queens.sh (which builds cpsolve first); standard library only.
Everything is measured in one run, so every cpsolve figure sits beside peer figures taken
under the same machine load:
  cpsolve   --count -e 'queens n = N'            N = 8..14, and 15, 16 with --threads 1 / 2
            --count <generic model .puz>           N = 12, 14 (tests/corpus/model/queens.puz, let n = N)
            --format json -e 'queens n = N'        first solution, N = 1000, 3000, 10000
  C         the peers' bitboard counter nqueens.c (gcc -O2), N = 8..16
  gprolog   the peers' queens_gp.pl (gplc --no-top-level), pairwise model, N = 8..13, 14 once (cap 30 s)
  gecode    the peers' queens_gecode.cpp, only if libgecode-dev is already installed
Every run's output is checked (counts against the known values; first solutions: distinct
columns and diagonals, re-checked here in Python); a mismatch stops the benchmark (exit 1).
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time

from benchlib import die, loadavg

BENCH = os.path.dirname(os.path.abspath(__file__))
SCRATCH = os.path.join(BENCH, '.scratch', 'queens')      # git-ignored (bench/.gitignore)
GENERIC_REL = os.path.join('tests', 'corpus', 'model', 'queens.puz')

EXPECTED = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680,
            12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512}
COUNT_NS = [8, 9, 10, 11, 12, 13, 14]      # fast group, every tool
HEAVY_NS = [15, 16]                        # heavy group: cpsolve 1 and 2 threads, C
GENERIC_NS = [12, 14]
GP_NS = [8, 9, 10, 11, 12, 13]             # GNU Prolog, fast group; 14 is run once
GP_ONCE_N, GP_CAP = 14, 30.0
FIRST_NS = [1000, 3000]                    # fast group
FIRST_HEAVY_NS = [10000]
CAP = 300.0                                # safety cap for every other command
GOALS = [  # (text, key, limit_s)
    ('count n=14 <= 0.3 s (and within 3x of the bitboard)', 'count14', 0.3),
    ('generic model n=14 <= 2 s', 'generic14', 2.0),
    ('count n=16 with 2 threads <= 6 s', 'count16t2', 6.0),
    ('first solution n=1000 <= 0.05 s', 'first1000', 0.05),
    ('first solution n=10000 <= 2 s', 'first10000', 2.0),
]


# ------------------------------------------------------------------ small helpers
def run_capture(argv, cwd=None):
    p = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def first_line(text):
    return (text.strip().splitlines() or ['?'])[0].strip()


def med(xs):
    return statistics.median(xs)


def fmt_ms(s):
    """seconds -> ms text with about 3-4 significant digits"""
    if s is None:
        return '-'
    ms = s * 1e3
    if ms < 10:
        return '%.3f' % ms
    if ms < 100:
        return '%.2f' % ms
    if ms < 1000:
        return '%.1f' % ms
    return '%.0f' % ms


def fmt_ratio(x):
    return '-' if x is None else ('%.2f' % x if x < 100 else '%.0f' % x)


# ------------------------------------------------------------------ one timed process
def timed_run(argv, cwd, out_path, cap):
    """Wall s (spawn to reap), user s and sys s of one process (os.wait4's rusage), stdout to
    out_path, stderr to out_path + '.err'.  posix_spawn + wait4 as in crypt_bench.py.  A timer
    SIGKILLs the process after cap seconds; returns (wall, user, sys, rc, timed_out)."""
    path = argv[0] if os.sep in argv[0] else shutil.which(argv[0])
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    acts = [(os.POSIX_SPAWN_OPEN, 1, out_path, flags, 0o644),
            (os.POSIX_SPAWN_OPEN, 2, out_path + '.err', flags, 0o644)]
    old = os.getcwd()
    os.chdir(cwd)
    killed = []
    try:
        t0 = time.perf_counter_ns()
        pid = os.posix_spawn(path, argv, os.environ, file_actions=acts)
        done = threading.Event()

        def kill():
            if not done.is_set():
                killed.append(True)
                os.kill(pid, signal.SIGKILL)
        timer = threading.Timer(cap, kill)
        timer.start()
        _, status, ru = os.wait4(pid, 0)
        t1 = time.perf_counter_ns()
        done.set()
        timer.cancel()
    finally:
        os.chdir(old)
    return (t1 - t0) / 1e9, ru.ru_utime, ru.ru_stime, os.waitstatus_to_exitcode(status), bool(killed)


# ------------------------------------------------------------------ output checks
COUNT_RE = re.compile(r'^(\d+) solutions?$')


def check_cp_count(n):
    def check(out):
        m = COUNT_RE.match(out.strip())
        if not m:
            raise ValueError('expected "<count> solutions", got %r' % out.strip()[:200])
        c = int(m.group(1))
        if c != EXPECTED[n]:
            raise ValueError('count %d, expected %d' % (c, EXPECTED[n]))
        return {'count': c}
    return check


def valid_placement(q, n):
    """q[i] = row (1..n) of the queen in column i+1: a permutation with distinct diagonals."""
    return (len(q) == n and all(isinstance(v, int) for v in q) and sorted(q) == list(range(1, n + 1))
            and len({v + i for i, v in enumerate(q)}) == n and len({v - i for i, v in enumerate(q)}) == n)


def check_cp_first(n):
    def check(out):
        lines = [l for l in out.splitlines() if l.strip()]
        if len(lines) != 1:
            raise ValueError('expected one JSON line, got %d lines' % len(lines))
        o = json.loads(lines[0])
        sols = o.get('solutions') or []
        if o.get('status') != 'solved' or len(sols) != 1:
            raise ValueError('status %r with %d solutions' % (o.get('status'), len(sols)))
        if not valid_placement(sols[0], n):
            raise ValueError('the printed placement is NOT a valid %d-queens solution' % n)
        return {'count': 1, 'valid': True}
    return check


def check_c(n):
    def check(out):
        f = out.strip().split('\t')
        if len(f) != 5 or int(f[0]) != n:
            raise ValueError('unexpected nqueens output %r' % out.strip()[:200])
        if int(f[1]) != EXPECTED[n]:
            raise ValueError('count %s, expected %d' % (f[1], EXPECTED[n]))
        # as bench_queens.py reads it: f[2] = mean s per count (loop >= 0.2 s), f[3] reps, f[4] cold count
        return {'count': int(f[1]), 'per_count': float(f[2]), 'reps': int(f[3]), 'cold': float(f[4])}
    return check


def check_gp(n):
    def check(out):
        f = out.strip().split('\t')
        if len(f) != 3 or int(f[0]) != n:
            raise ValueError('unexpected queens_gp output %r' % out.strip()[:200])
        if int(f[1]) != EXPECTED[n]:
            raise ValueError('count %s, expected %d' % (f[1], EXPECTED[n]))
        return {'count': int(f[1]), 'inproc': float(f[2]) / 1000.0}   # real_time ms, 1 ms resolution
    return check


def check_gecode(n):
    def check(out):
        f = out.strip().split('\t')
        if len(f) != 5 or int(f[0]) != n:
            raise ValueError('unexpected queens_gecode output %r' % out.strip()[:200])
        if int(f[1]) != EXPECTED[n]:
            raise ValueError('count %s, expected %d' % (f[1], EXPECTED[n]))
        return {'count': int(f[1]), 'inproc': float(f[2]), 'nodes': int(f[3])}
    return check


# ------------------------------------------------------------------ timing
class Cmd:
    def __init__(self, key, label, argv, check, cap=CAP):
        self.key, self.label, self.argv, self.check, self.cap = key, label, argv, check, cap
        self.wall, self.user, self.sys, self.extra = [], [], [], []
        self.timed_out = False
        self.loads = []


def run_one(cmd, record):
    out_path = os.path.join(SCRATCH, 'out', cmd.key + '.out')
    w, u, s, rc, to = timed_run(cmd.argv, SCRATCH, out_path, cmd.cap)
    if to:
        cmd.timed_out = True
        return
    with open(out_path) as f:
        out = f.read()
    if rc != 0:
        with open(out_path + '.err') as f:
            err = f.read()
        die('%s exited with status %d\n  command: %s\n  stderr: %s'
            % (cmd.label, rc, ' '.join(cmd.argv), err.strip()[:2000]))
    try:
        extra = cmd.check(out)
    except (ValueError, KeyError, TypeError, json.JSONDecodeError) as e:
        die('%s: wrong output: %s\n  command: %s' % (cmd.label, e, ' '.join(cmd.argv)))
    if record:
        cmd.wall.append(w)
        cmd.user.append(u)
        cmd.sys.append(s)
        cmd.extra.append(extra)


def time_group(title, cmds, runs, warmup):
    """Rounds of every command, the order rotating each round, so that a change in machine
    load hits every command alike.  Warm-up rounds are checked but not recorded."""
    if not cmds or runs < 1:
        return None
    before = loadavg()
    print('\n== %s: %d commands x %d runs (+%d warm-up), interleaved; load average before %s'
          % (title, len(cmds), runs, warmup, before), flush=True)
    for r in range(warmup + runs):
        k = r % len(cmds)
        t0 = time.perf_counter()
        for c in cmds[k:] + cmds[:k]:
            run_one(c, r >= warmup)
        print('   round %d/%d done in %.1f s (%s), load %s' % (
            r + 1, warmup + runs, time.perf_counter() - t0, 'warm-up' if r < warmup else 'timed',
            loadavg()), flush=True)
    after = loadavg()
    return (title, before, after)


# ------------------------------------------------------------------ peers
def shown(path):
    """A path as printed: relative to the repository when inside it, so that the output (which
    bench/run-all.sh keeps in bench/results/) names no directory of the machine."""
    rel = os.path.relpath(path, os.path.dirname(BENCH))
    return path if rel.startswith('..') else rel


def setup_peers(args):
    """Copy the peers' sources to the scratch dir (their dir is read-only) and build them as
    the peers' run_all.sh does: gcc -O2, gplc --no-top-level, g++ -O2 -lgecode*."""
    q = os.path.join(args.peers, 'queens')
    d = os.path.join(SCRATCH, 'peers')
    os.makedirs(d, exist_ok=True)
    peers = {}
    vers = {}
    src = os.path.join(q, 'nqueens.c')
    if not os.path.isfile(src):
        die('%s not found (pass --peers DIR)' % src)
    shutil.copy(src, d)
    gcc = shutil.which('gcc')
    if not gcc:
        print('!! gcc not found: the C bitboard counter is skipped')
    else:
        rc, out, err = run_capture([gcc, '-O2', '-o', 'nqueens', 'nqueens.c'], cwd=d)
        if rc != 0:
            die('gcc -O2 nqueens.c failed:\n%s%s' % (out, err))
        peers['c'] = os.path.join(d, 'nqueens')
        vers['gcc'] = first_line(run_capture([gcc, '--version'])[1])
        print('   C bitboard: %s/nqueens.c compiled with gcc -O2 (%s)' % (shown(q), vers['gcc']))

    gplc = shutil.which('gplc')
    if not gplc:
        print('\n!! GNU Prolog (gplc) is not installed: the peer is skipped.')
        print('!! Install it with:   apt-get install gprolog   (Debian/Ubuntu, as root)')
        print('!! or re-run:         bench/queens.sh --install-peers\n')
    else:
        shutil.copy(os.path.join(q, 'queens_gp.pl'), d)
        rc, out, err = run_capture([gplc, '--no-top-level', '-o', 'queens_gp', 'queens_gp.pl'], cwd=d)
        if rc != 0:
            die('gplc failed on queens_gp.pl:\n%s%s' % (out, err))
        peers['gp'] = os.path.join(d, 'queens_gp')
        vo, ve = run_capture([gplc, '--version'])[1:]
        vers['gprolog'] = first_line(vo + ve)
        print('   GNU Prolog: %s/queens_gp.pl compiled with gplc --no-top-level (%s); '
              'run as `queens_gp N pairwise` (bench_queens.py), counting only: the program has '
              'no first-solution mode' % (shown(q), vers['gprolog']))

    gxx = shutil.which('g++')
    hdr = '/usr/include/gecode/int.hh'
    if gxx and os.path.isfile(hdr) and os.path.isfile(os.path.join(q, 'queens_gecode.cpp')):
        shutil.copy(os.path.join(q, 'queens_gecode.cpp'), d)
        rc, out, err = run_capture([gxx, '-O2', '-o', 'queens_gecode', 'queens_gecode.cpp', '-lgecodesearch',
                                    '-lgecodeint', '-lgecodekernel', '-lgecodesupport'], cwd=d)
        if rc != 0:
            print('!! Gecode: g++ failed, skipped:\n%s%s' % (out, err))
        else:
            peers['gecode'] = os.path.join(d, 'queens_gecode')
            vers['gecode'] = 'libgecode-dev ' + run_capture(
                ['dpkg-query', '-W', '-f=${Version}', 'libgecode-dev'])[1].strip()
            print('   Gecode C++: queens_gecode.cpp compiled with g++ -O2 (%s)' % vers['gecode'])
    else:
        print('   Gecode C++: skipped (libgecode-dev is not installed; this benchmark does not install it)')
    return peers, vers


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--root', default=os.path.dirname(BENCH), help='repository root')
    ap.add_argument('--runs', type=int, default=5, help='timed runs of each fast command (default 5)')
    ap.add_argument('--heavy-runs', type=int, default=None,
                    help='timed runs for n >= 15 and first solution n = 10000 (default min(runs, 3))')
    ap.add_argument('--warmup', type=int, default=1, help='untimed rounds before the fast group (default 1)')
    ap.add_argument('--quick', action='store_true', help='skip n >= 15 and n = 10000')
    ap.add_argument('--peers', default=os.path.join(BENCH, 'peers'),
                    help='directory holding queens/nqueens.c and queens/queens_gp.pl')
    args = ap.parse_args()
    if args.heavy_runs is None:
        args.heavy_runs = min(args.runs, 3)
    if args.runs < 1 or args.heavy_runs < 1 or args.warmup < 0:
        ap.error('--runs and --heavy-runs must be >= 1 and --warmup >= 0')
    root = os.path.abspath(args.root)
    cp = os.path.join(root, 'target', 'release', 'cpsolve')
    if not os.access(cp, os.X_OK):
        die('%s not found (run bench/queens.sh, which builds it)' % cp)

    # Snapshot the binary: target/ is shared with other engineers, whose builds may replace
    # target/release/cpsolve in the middle of a run.  Every figure below comes from this copy.
    os.makedirs(os.path.join(SCRATCH, 'out'), exist_ok=True)
    snap = os.path.join(SCRATCH, 'cpsolve')
    shutil.copy2(cp, snap + '.tmp')
    os.replace(snap + '.tmp', snap)
    with open(snap, 'rb') as f:
        sha = hashlib.sha256(f.read()).hexdigest()[:12]
    mtime = datetime.datetime.fromtimestamp(os.path.getmtime(cp)).strftime('%Y-%m-%d %H:%M:%S')
    cp = snap

    started = datetime.datetime.now()
    print('== N-queens benchmark   %s' % started.strftime('%Y-%m-%d %H:%M:%S %Z').strip())
    cpu = ''
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next((l.split(':', 1)[1].strip() for l in f if l.startswith('model name')), '')
    except OSError:
        pass
    print('   machine: %d cores %s, %s' % (os.cpu_count(), cpu, platform.platform()))
    rev = run_capture(['git', 'rev-parse', '--short', 'HEAD'], cwd=root)[1].strip() or '?'
    dirty = run_capture(['git', 'status', '--porcelain', '--untracked-files=no'], cwd=root)[1].strip()
    cp_ver = first_line(run_capture([cp, '--version'])[1])
    print('   cpsolve: %s, target/release/cpsolve built %s, sha256 %s, git %s%s; timed as the copy %s'
          % (cp_ver, mtime, sha, rev, ' + uncommitted changes' if dirty else '', os.path.relpath(cp, root)))
    print('   runs: %d timed (+%d warm-up round) per fast command; %s; interleaved; stdout to a scratch '
          'file, checked after every run' % (args.runs, args.warmup,
                                             'heavy group skipped (--quick)' if args.quick else
                                             '%d timed (no warm-up) for n >= 15 and n = 10000' % args.heavy_runs))
    load_start = loadavg()
    print('   load average before: %s   (shared 2-core machine: other jobs, e.g. compilations, may run)'
          % load_start)

    print('\n== setup')
    peers, vers = setup_peers(args)
    with open(os.path.join(root, GENERIC_REL)) as f:
        generic = f.read()
    if len(re.findall(r'^let n = 8$', generic, re.M)) != 1:
        die('%s: expected exactly one line `let n = 8`' % GENERIC_REL)
    gen_path = {}
    for n in GENERIC_NS:
        p = os.path.join(SCRATCH, 'queens_%d.puz' % n)
        with open(p, 'w') as f:
            f.write(re.sub(r'^let n = 8$', 'let n = %d' % n, generic, flags=re.M))
        gen_path[n] = p
    print('   generic model: %s with `let n = N` written to %s/queens_{%s}.puz'
          % (GENERIC_REL, os.path.relpath(SCRATCH, root), ','.join(map(str, GENERIC_NS))))

    # ---- commands
    C = {}

    def add(group, key, label, argv, check, cap=CAP):
        C[key] = Cmd(key, label, argv, check, cap)
        group.append(C[key])

    fast, heavy, once = [], [], []
    for n in COUNT_NS:
        add(fast, 'cp%d' % n, "cpsolve --count -e 'queens n = %d'" % n,
            [cp, '--count', '-e', 'queens n = %d' % n], check_cp_count(n))
    for n in GENERIC_NS:
        add(fast, 'gen%d' % n, 'cpsolve --count queens_%d.puz (generic model)' % n,
            [cp, '--count', gen_path[n]], check_cp_count(n))
    for n in FIRST_NS:
        add(fast, 'first%d' % n, "cpsolve --format json -e 'queens n = %d'" % n,
            [cp, '--format', 'json', '-e', 'queens n = %d' % n], check_cp_first(n))
    if 'c' in peers:
        for n in COUNT_NS:
            add(fast, 'c%d' % n, 'nqueens %d' % n, [peers['c'], str(n)], check_c(n))
    if 'gp' in peers:
        for n in GP_NS:
            add(fast, 'gp%d' % n, 'queens_gp %d pairwise' % n, [peers['gp'], str(n), 'pairwise'], check_gp(n))
        add(once, 'gp%d' % GP_ONCE_N, 'queens_gp %d pairwise' % GP_ONCE_N,
            [peers['gp'], str(GP_ONCE_N), 'pairwise'], check_gp(GP_ONCE_N), cap=GP_CAP)
    if 'gecode' in peers:
        for n in [8, 10, 12, 13]:
            add(fast, 'gecode%d' % n, 'queens_gecode %d val' % n, [peers['gecode'], str(n), 'val'], check_gecode(n))
    if not args.quick:
        for n in HEAVY_NS:
            for t in (1, 2):
                add(heavy, 'cp%dt%d' % (n, t), "cpsolve --count --threads %d -e 'queens n = %d'" % (t, n),
                    [cp, '--count', '--threads', str(t), '-e', 'queens n = %d' % n], check_cp_count(n))
            if 'c' in peers:
                add(heavy, 'c%d' % n, 'nqueens %d' % n, [peers['c'], str(n)], check_c(n))
        for n in FIRST_HEAVY_NS:
            add(heavy, 'first%d' % n, "cpsolve --format json -e 'queens n = %d'" % n,
                [cp, '--format', 'json', '-e', 'queens n = %d' % n], check_cp_first(n))

    # search statistics, one untimed run each (not part of the timing)
    stats = {}
    for key, argv in [('cp14', [cp, '--count', '--stats', '--format', 'json', '-e', 'queens n = 14']),
                      ('gen14', [cp, '--count', '--stats', '--format', 'json', gen_path[14]]),
                      ('first1000', [cp, '--stats', '--format', 'json', '-e', 'queens n = 1000'])]:
        rc, out, err = run_capture(argv, cwd=SCRATCH)
        try:
            stats[key] = json.loads(out.strip().splitlines()[-1]).get('stats', {})
        except (ValueError, IndexError):
            stats[key] = {}
    print('   cpsolve --stats (1 untimed run): ' + '; '.join(
        '%s nodes %s, failures %s, propagations %s' % (k, s.get('nodes'), s.get('failures'), s.get('propagations'))
        for k, s in stats.items()))

    # ---- timing
    groups = [time_group('fast group', fast, args.runs, args.warmup),
              time_group('heavy group (n >= 15, first solution n = 10000)', heavy, args.heavy_runs, 0)]
    if once:
        before = loadavg()
        print('\n== GNU Prolog n = %d, once (cap %.0f s); load average before %s' % (GP_ONCE_N, GP_CAP, before),
              flush=True)
        for c in once:
            run_one(c, True)
        groups.append(('gprolog n=%d once' % GP_ONCE_N, before, loadavg()))
    load_end = loadavg()
    groups = [g for g in groups if g]

    # ---- tables
    def has(key):
        return key in C and C[key].wall

    def wmed(key):
        return med(C[key].wall) if has(key) else None

    def umed(key):
        return med(C[key].user) if has(key) else None

    def xmed(key, f):
        return med([e[f] for e in C[key].extra]) if has(key) else None

    print('\n== every command (seconds shown as ms; wall = spawn to reap; user/sys = CPU of the child, '
          'from wait4)')
    print('%-56s %4s %11s %11s %11s %9s' % ('command', 'runs', 'wall med', 'wall min', 'user med', 'sys med'))
    print('-' * 107)
    for c in fast + heavy + once:
        if c.timed_out:
            print('%-56s %4s %11s' % (c.label, '-', '> %.0f s (cap; killed)' % c.cap))
            continue
        print('%-56s %4d %11s %11s %11s %9s' % (c.label, len(c.wall), fmt_ms(med(c.wall)), fmt_ms(min(c.wall)),
                                               fmt_ms(med(c.user)), fmt_ms(med(c.sys))))

    lines = []
    lines.append('| n | solutions | cpsolve wall | cpsolve user | C bitboard, per count | C, cold first count '
                 '| C, process wall (reps) | **cpsolve / C** | GNU Prolog wall | GNU Prolog in-process '
                 '| **gprolog / cpsolve** |')
    lines.append('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
    ratios = {}
    for n in COUNT_NS + ([] if args.quick else HEAVY_NS):
        k = 'cp%d' % n if n in COUNT_NS else 'cp%dt1' % n
        cpw, cpu_ = wmed(k), umed(k)
        cc = 'c%d' % n
        per, cold = xmed(cc, 'per_count'), xmed(cc, 'cold')
        reps = '(%d)' % round(xmed(cc, 'reps')) if has(cc) else ''
        gk = 'gp%d' % n
        gpw = wmed(gk)
        if gk in C and C[gk].timed_out:
            gpw_s, gpi_s = '> %.0f s' % GP_CAP, '-'
        else:
            gpw_s = fmt_ms(gpw)
            gpi_s = fmt_ms(xmed(gk, 'inproc'))
        r_c = cpw / per if cpw and per else None
        r_gp = gpw / cpw if cpw and gpw else None
        ratios[n] = (r_c, r_gp)
        lines.append('| %d | %d | %s | %s | %s | %s | %s %s | %s | %s | %s | %s |' % (
            n, EXPECTED[n], fmt_ms(cpw), fmt_ms(cpu_), fmt_ms(per), fmt_ms(cold), fmt_ms(wmed(cc)), reps,
            fmt_ratio(r_c), gpw_s, gpi_s, fmt_ratio(r_gp)))
    print('\n== counting all solutions, side by side (ms, medians; cpsolve = `--count -e \'queens n = N\'`, '
          '1 thread)\n')
    print('\n'.join(lines))
    print('\n   C per count = the loop mean nqueens prints (repeated until >= 0.2 s), the figure the peers\''
          ' bench_queens.py reads;\n   its process wall includes those repetitions.  cpsolve wall includes'
          ' process start-up.  Ratios use the medians.')

    if not args.quick:
        print('\n== n >= 15, 1 and 2 threads (ms, medians)\n')
        print('| n | cpsolve 1 thread wall | user | cpsolve 2 threads wall | user | speed-up | C per count |')
        print('|---:|---:|---:|---:|---:|---:|---:|')
        for n in HEAVY_NS:
            w1, w2 = wmed('cp%dt1' % n), wmed('cp%dt2' % n)
            print('| %d | %s | %s | %s | %s | %s | %s |' % (
                n, fmt_ms(w1), fmt_ms(umed('cp%dt1' % n)), fmt_ms(w2), fmt_ms(umed('cp%dt2' % n)),
                fmt_ratio(w1 / w2 if w1 and w2 else None), fmt_ms(xmed('c%d' % n, 'per_count'))))

    print('\n== generic model (%s with let n = N), `cpsolve --count` (ms, medians)\n' % GENERIC_REL)
    print('| n | generic wall | generic user | `-e \'queens n = N\'` wall | generic / -e |')
    print('|---:|---:|---:|---:|---:|')
    for n in GENERIC_NS:
        g, e = wmed('gen%d' % n), wmed('cp%d' % n)
        print('| %d | %s | %s | %s | %s |' % (n, fmt_ms(g), fmt_ms(umed('gen%d' % n)), fmt_ms(e),
                                              fmt_ratio(g / e if g and e else None)))

    print('\n== first solution, `cpsolve --format json -e \'queens n = N\'` (ms; placement re-checked in Python)\n')
    print('| n | runs | wall med | wall min | user med | valid |')
    print('|---:|---:|---:|---:|---:|---|')
    for n in FIRST_NS + ([] if args.quick else FIRST_HEAVY_NS):
        k = 'first%d' % n
        print('| %d | %d | %s | %s | %s | %s |' % (n, len(C[k].wall), fmt_ms(wmed(k)), fmt_ms(min(C[k].wall)),
                                                  fmt_ms(umed(k)), 'yes, every run'))
    if 'gp' in peers:
        print('\n   GNU Prolog first solution: n/a (the peers\' queens_gp.pl only counts all solutions)')

    print('\n== goals (judged on the wall-time median; user CPU beside it)')
    got = {'count14': ('cp14', None), 'generic14': ('gen14', None), 'count16t2': ('cp16t2', None),
           'first1000': ('first1000', None), 'first10000': ('first10000', None)}
    for text, key, lim in GOALS:
        k = got[key][0]
        if not has(k):
            print('   %-55s skipped' % text)
            continue
        w, u = wmed(k), umed(k)
        ok = w <= lim
        extra = ''
        if key == 'count14' and ratios.get(14, (None,))[0] is not None:
            r = ratios[14][0]
            ok = ok and r <= 3
            extra = ', %.2fx the bitboard' % r
        print('   %-55s %s: wall %s ms (user %s ms%s)' % (text, 'MET   ' if ok else 'MISSED', fmt_ms(w),
                                                           fmt_ms(u), extra))

    print('\n== load average (1, 5, 15 min)')
    print('   start %s' % load_start)
    for title, b, a in groups:
        print('   %-50s before %s, after %s' % (title, b, a))
    print('   end   %s' % load_end)
    print('   versions: %s; %s' % (cp_ver, '; '.join('%s' % v for v in vers.values())))

    res = {'date': started.isoformat(timespec='seconds'), 'cpsolve': {'version': cp_ver, 'sha256_12': sha,
           'git': rev, 'dirty': bool(dirty)}, 'versions': vers, 'load_start': load_start, 'load_end': load_end,
           'groups': groups, 'stats': stats,
           'commands': {c.key: {'label': c.label, 'wall': c.wall, 'user': c.user, 'sys': c.sys, 'extra': c.extra,
                                'timed_out': c.timed_out} for c in fast + heavy + once}}
    with open(os.path.join(SCRATCH, 'results.json'), 'w') as f:
        json.dump(res, f, indent=1)
    print('   every run: %s' % os.path.relpath(os.path.join(SCRATCH, 'results.json'), root))


if __name__ == '__main__':
    main()

"""The solvers of bench/hard.sh: how each is run on one instance, and how its output is read
into the same result (status, best objective, wall time, nodes) whatever the solver prints.

Three ways in:

  through `minizinc` (Debian's 2.6.4), as minizinc_bench.run does:
    cpsolve      --solver org.cpsolve.cpsolve             (fzn-cpsolve, the repository's mznlib/)
    gecode       --solver org.gecode.gecodefix            (bench/peers/gecodefix.sh)
    pumpkin      --solver nl.tudelft.algorithmics.pumpkin (bench/peers/pumpkin.sh)
  with -s --output-mode dzn --output-objective -t MS, -f (free search) and -i (optimisation).

  through the WebAssembly MiniZinc 2.10 of npm `minizinc` 4.5.1 under Node (bench/peers/chuffed.sh):
    chuffed      peers/chuffed/mzn-wasm.js -- --solver chuffed -s --output-objective
                 --time-limit MS [-f] [--intermediate] -r 1
                 (the wasm MiniZinc has no short -i; -r 1 fixes Chuffed's random seed, which
                 otherwise changes from run to run)
    huub         peers/huub/mzn-huub -s -t MS [-f] [-i]: the wasm MiniZinc compiles to FlatZinc
                 JSON with Huub's mznlib, the native huub 100.1.0 solves (bench/peers/huub.sh)
  Both print MiniZinc's text output, read by minizinc_bench.read_output.  Their time limit
  includes flattening, as minizinc's -t does.

  the user's own command (a JSON object, read by read_cli_json):
    cpsolve-cli  cpsolve --format json --stats --timeout S MODEL.mzn DATA.dzn
                 It flattens with Debian's MiniZinc and cpsolve's library, as fzn-cpsolve does,
                 and prints every improving solution; `objective` is the best one and `optimal`
                 says whether it was proved.  It runs as a user runs it, with no flag: its
                 default --search auto (free search where one answer is wanted, after the
                 annotation's probe), whatever this script's --search says.

Every run is one process group, killed 30 s after the time limit if it is still alive.
"""
import json
import os

from minizinc_bench import GRACE, instance_files, read_output, run, run_command

ALL_SOLVERS = ('cpsolve', 'gecode', 'pumpkin', 'chuffed', 'huub', 'cpsolve-cli')
THROUGH_MINIZINC = ('cpsolve', 'gecode', 'pumpkin')
BENCH = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(BENCH, 'peers', 'chuffed', 'mzn-wasm.js')
MZN_HUUB = os.path.join(BENCH, 'peers', 'huub', 'mzn-huub')
PEER_TEXT = {
    'gecode': 'Gecode 6.2.0 (Debian fzn-gecode) with its native globals, org.gecode.gecodefix',
    'pumpkin': 'Pumpkin 0.5.0 (crates.io pumpkin-solver) with its own mznlib, through fzn-pumpkin',
    'chuffed': 'Chuffed 0.14.0 in the WebAssembly MiniZinc 2.10.0 of npm minizinc 4.5.1 under Node '
               '(flattening and search in wasm, about 1.4x slower than native); --time-limit MS, '
               '--intermediate, -r 1',
    'huub': 'Huub 100.1.0 (crates.io huub-cli, native) on FlatZinc JSON compiled by the wasm MiniZinc '
            '2.10 with its own mznlib (peers/huub/mzn-huub); its -t covers compiling',
    'cpsolve-cli': "the user's command: cpsolve --format json --stats --timeout S MODEL DATA (its "
                   "default --search auto)",
}


class Tools:
    """Where the solvers are: MZN_SOLVER_PATH for the minizinc ones, the wasm MiniZinc's
    package folder, the huub binary and the cpsolve binary of cpsolve-cli."""

    def __init__(self, solver_path='', wasm_pkg='', huub_bin='', cpsolve_cli=''):
        self.solver_path = solver_path
        self.wasm_pkg = wasm_pkg
        self.huub_bin = huub_bin
        self.cpsolve_cli = cpsolve_cli


def run_solver(solver, tools, entry, timeout, corpus, free):
    """One run of `solver` on the instance `entry` of the folder `corpus`: a dict with status
    (OPTIMAL, SATISFIED, UNSAT, UNKNOWN, TIMEOUT, ERROR), objective, wall, rc, reason, nodes,
    failures, solveTime, flatTime."""
    optimise = entry['method'] != 'satisfy'
    if solver in THROUGH_MINIZINC:
        flags = (['-f'] if free else []) + (['-i'] if optimise else [])
        return run(solver, tools.solver_path, entry, timeout, corpus=corpus, flags=flags)
    model, data = instance_files(entry, corpus)
    cwd = os.path.join(corpus, entry['folder'])
    ms = str(int(timeout * 1000))
    if solver == 'chuffed':
        # The shim's own kill comes before run_command's, so what was printed is kept.
        cmd = (['node', SHIM, '--pkg', tools.wasm_pkg, '--hard-kill', '%g' % (timeout + GRACE - 10), '--',
                '--solver', 'chuffed', '-s', '--output-objective', '--time-limit', ms, '-r', '1']
               + (['-f'] if free else []) + (['--intermediate'] if optimise else []) + [model] + data)
        return read_output(*run_command(cmd, cwd, timeout), timeout)
    if solver == 'huub':
        cmd = ([MZN_HUUB, '--pkg', tools.wasm_pkg, '--huub', tools.huub_bin, '-s', '-t', ms]
               + (['-f'] if free else []) + (['-i'] if optimise else []) + [model] + data)
        return read_output(*run_command(cmd, cwd, timeout), timeout)
    if solver == 'cpsolve-cli':
        cmd = [tools.cpsolve_cli, '--format', 'json', '--stats', '--timeout', '%g' % timeout, model] + data
        return read_cli_json(*run_command(cmd, cwd, timeout), entry)
    raise ValueError('unknown solver %s' % solver)


def read_cli_json(out, err, rc, wall, killed, entry):
    """The result of `cpsolve --format json` (docs/json.md): one object, `status` solved,
    unsatisfiable, limit or error; `optimal` and `objective` on an optimisation."""
    r = {'status': 'ERROR', 'objective': None, 'wall': wall, 'rc': rc, 'reason': '', 'nodes': None,
         'failures': None, 'solveTime': None, 'flatTime': None}
    if killed:
        r.update(status='TIMEOUT', reason='killed %d s after the time limit' % GRACE)
        return r
    lines = [l for l in out.splitlines() if l.startswith('{')]
    try:
        j = json.loads(lines[-1])
    except (IndexError, ValueError):
        tail = [l.strip() for l in (err + '\n' + out).splitlines() if l.strip()]
        r['reason'] = 'no JSON object (exit %s)%s' % (rc, ': ' + tail[-1][:140] if tail else '')
        return r
    stats = j.get('stats') or {}
    r['nodes'], r['failures'] = stats.get('nodes'), stats.get('failures')
    if stats.get('time_ms') is not None:
        r['solveTime'] = stats['time_ms'] / 1000
    status, count = j.get('status'), j.get('count') or 0
    count = int(count)          # above 2^53 it is a string
    if status == 'error':
        errors = j.get('errors') or [{}]
        r['reason'] = '%s (line %s)' % (errors[0].get('message', '?'), errors[0].get('line', '?'))
        return r
    if status == 'unsatisfiable':
        r['status'] = 'UNSAT'
        return r
    if count and entry['method'] != 'satisfy':
        r['objective'] = j.get('objective')
    if status == 'solved':
        # An optimisation's answer is proved optimal (`optimal`); a satisfaction's is a first solution.
        r['status'] = 'OPTIMAL' if j.get('optimal') else 'SATISFIED'
    elif status == 'limit':
        r['status'] = 'SATISFIED' if count else ('TIMEOUT' if j.get('stopped') == 'time' else 'UNKNOWN')
        if not count and j.get('stopped') != 'time':
            r['reason'] = 'stopped: %s' % j.get('stopped')
    else:
        r['reason'] = 'unexpected status %r' % status
    return r

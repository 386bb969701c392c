#!/usr/bin/env bash
# Flattens the instances of expected.json with cpsolve's mznlib (solvers/cpsolve.msc) into
#   fzn/FOLDER/INSTANCE.fzn.gz   the FlatZinc, gzipped (deterministic bytes: no name, mtime 0)
#   fzn/FOLDER/INSTANCE.ozn      MiniZinc's output specification, for solns2out
# INSTANCE is the data file's name without .dzn, or the model's without .mzn when it has no
# data file. Then it rewrites instances.json, the index the tests iterate over. A file whose
# content did not change is not rewritten. Run it after any change to mznlib/.
#
# usage: tests/minizinc/regen.sh [NAME...]     (from any directory; needs minizinc, python3)
#   NAME   a folder (golomb) or one instance (golomb/03); default: every instance
# Exit status: 0 when everything flattened, 1 when some instance failed (each failure is
# listed at the end with MiniZinc's message), 2 on bad usage or a missing tool.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
case "${1:-}" in
  -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
esac
command -v minizinc >/dev/null 2>&1 || { echo "regen.sh: minizinc is needed (apt-get install minizinc)" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "regen.sh: python3 is needed" >&2; exit 2; }
exec python3 - "$HERE" "$ROOT" "$@" <<'PY'
import gzip, json, os, subprocess, sys, tempfile, time

here, root, names = sys.argv[1], sys.argv[2], sys.argv[3:]
msc = os.path.join(root, 'solvers', 'cpsolve.msc')
HUGE = 2_000_000          # bytes of plain FlatZinc above which an instance is called out


def stem(entry):
    return os.path.splitext(entry['dzn'] or entry['mzn'])[0]


def name(entry):
    return entry['folder'] + '/' + stem(entry)


def write_if_changed(path, data):
    """Writes bytes to path unless it already holds them; True when written."""
    try:
        with open(path, 'rb') as f:
            if f.read() == data:
                return False
    except FileNotFoundError:
        pass
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(data)
    os.replace(tmp, path)
    return True


def gzipped(data):
    # Fixed header (no file name, mtime 0): the same FlatZinc always gives the same bytes.
    return gzip.compress(data, compresslevel=9, mtime=0)


entries = json.load(open(os.path.join(here, 'expected.json')))
chosen = entries
if names:
    unknown = [n for n in names if not any(n in (e['folder'], name(e)) for e in entries)]
    if unknown:
        print('regen.sh: unknown instance or folder: %s (see expected.json)' % ', '.join(unknown), file=sys.stderr)
        sys.exit(2)
    chosen = [e for e in entries if e['folder'] in names or name(e) in names]

print('== flattening %d instance(s) with %s' % (len(chosen), os.path.relpath(msc, root)))
print('   %s' % subprocess.run(['minizinc', '--version'], capture_output=True, text=True).stdout.splitlines()[0])
failed, huge, written = [], [], 0
plain_total = gz_total = 0
for e in chosen:
    out_dir = os.path.join(here, 'fzn', e['folder'])
    os.makedirs(out_dir, exist_ok=True)
    cmd = ['minizinc', '--solver', msc, '-c', os.path.join(here, e['folder'], e['mzn'])]
    if e['dzn']:
        cmd.append(os.path.join(here, e['folder'], e['dzn']))
    with tempfile.TemporaryDirectory() as tmp:
        fzn, ozn = os.path.join(tmp, 'model.fzn'), os.path.join(tmp, 'model.ozn')
        start = time.monotonic()
        run = subprocess.run(cmd + ['--fzn', fzn, '--ozn', ozn], capture_output=True, text=True)
        secs = time.monotonic() - start
        if run.returncode != 0 or not os.path.exists(fzn):
            msg = [l for l in run.stderr.strip().splitlines() if l.strip()]
            failed.append((name(e), run.returncode, '\n      '.join(msg[-6:]) or '(no message)'))
            print('  FAILED     %-45s exit %d' % (name(e), run.returncode), flush=True)
            continue
        data = open(fzn, 'rb').read()
        packed = gzipped(data)
        changed = write_if_changed(os.path.join(out_dir, stem(e) + '.fzn.gz'), packed)
        changed |= write_if_changed(os.path.join(out_dir, stem(e) + '.ozn'), open(ozn, 'rb').read())
    written += changed
    plain_total += len(data)
    gz_total += len(packed)
    if len(data) > HUGE:
        huge.append((name(e), len(data), len(packed)))
    print('  %-10s %-45s %9d bytes (%8d gzipped) %5.1f s' % (
        'written' if changed else 'unchanged', name(e), len(data), len(packed), secs), flush=True)

# The index: every instance of expected.json, with its FlatZinc and output specification as
# found on disk now (null when missing, e.g. an instance that never flattened).
index = []
for e in entries:
    fzn = 'fzn/%s/%s.fzn.gz' % (e['folder'], stem(e))
    ozn = 'fzn/%s/%s.ozn' % (e['folder'], stem(e))
    index.append({
        'name': name(e),
        'folder': e['folder'],
        'mzn': e['folder'] + '/' + e['mzn'],
        'dzn': e['folder'] + '/' + e['dzn'] if e['dzn'] else None,
        'fzn': fzn if os.path.exists(os.path.join(here, fzn)) else None,
        'ozn': ozn if os.path.exists(os.path.join(here, ozn)) else None,
        'method': e['method'],
        'status': e['status'],
        'objective': e['objective'],
    })
text = '[\n' + ',\n'.join('  ' + json.dumps(i) for i in index) + '\n]\n'
write_if_changed(os.path.join(here, 'instances.json'), text.encode())

missing = [i['name'] for i in index if i['fzn'] is None]
print('\n%d flattened (%d instance(s) with a changed file), %d failed; instances.json: %d instances, %d without FlatZinc%s'
      % (len(chosen) - len(failed), written, len(failed), len(index), len(missing),
         (' (%s)' % ', '.join(missing)) if missing else ''))
print('FlatZinc of these: %.1f MB plain, %.2f MB gzipped' % (plain_total / 1e6, gz_total / 1e6))
for n, size, packed in huge:
    print('  over %.0f MB plain: %s, %.1f MB (%.2f MB gzipped)' % (HUGE / 1e6, n, size / 1e6, packed / 1e6))
if failed:
    print('\n!! %d instance(s) FAILED to flatten (their old FlatZinc, if any, was left as it was):'
          % len(failed), file=sys.stderr)
    for n, rc, msg in failed:
        print('  %s (minizinc exit %d):\n      %s' % (n, rc, msg), file=sys.stderr)
    sys.exit(1)
PY

#!/usr/bin/env python3
"""Chooses the 55 models of bench/newuser/ by the seeded rule of bench/newuser/README.md.

Reads the mirrored repositories with `git show`, screens each candidate (the text rule, then
Gecode), and writes bench/newuser/models/NN-NAME/{model.mzn,data.dzn,SOURCE} and
bench/newuser/selection.tsv (every candidate tried, with the reason it was kept or left).
Never runs cpsolve. usage: choose.py [--seed S]
"""
import hashlib, os, re, subprocess, sys, tempfile

SEED = "issue49-newuser-1"
HERE = os.path.dirname(os.path.abspath(__file__))
# Where the repositories were fetched (each as MIRROR/owner+name/repo): CPSOLVE_MIRROR.
MIRROR = os.environ.get("CPSOLVE_MIRROR", "")
STD = "/usr/share/minizinc/std"
SOURCES = [
    # name, mirror dir, repository, quota, list of candidate paths, group (one model per group)
    ("hakank", "hakank+hakank", "hakank/hakank", 25),
    ("tutorial", "MiniZinc+libminizinc", "MiniZinc/libminizinc", 10),
    ("benchmarks", "MiniZinc+minizinc-benchmarks", "MiniZinc/minizinc-benchmarks", 10),
    ("csplib", "csplib+csplib", "csplib/csplib", 10),
]


def git(mirror, *args):
    return subprocess.run(["git", "-C", f"{MIRROR}/{mirror}/repo", *args],
                          capture_output=True, text=True, errors="replace").stdout


def key(source, path):
    return hashlib.sha256(f"{SEED}:{source}:{path}".encode()).hexdigest()


def candidates(source, mirror, files):
    """(group, model path, [data paths]) for the source, unordered."""
    mzn = [f for f in files if f.endswith(".mzn")]
    dzn = [f for f in files if f.endswith(".dzn")]
    out = []
    for m in mzn:
        d = os.path.dirname(m)
        if source == "hakank":
            if d != "minizinc":
                continue
            group = m
            data = [x for x in dzn if os.path.dirname(x) == d
                    and os.path.basename(x).startswith(os.path.basename(m)[:-4])]
        elif source == "tutorial":
            if not m.startswith("docs/en/examples/") or "/playground/" in m or m.endswith(".mzc.mzn"):
                continue
            group = m
            data = [x for x in dzn if os.path.dirname(x) == d]
        elif source == "benchmarks":
            group = m.split("/")[0]
            data = [x for x in dzn if x.split("/")[0] == group]
        else:  # csplib
            if not m.startswith("Problems/"):
                continue
            group = "/".join(m.split("/")[:2])
            data = [x for x in dzn if x.startswith(group + "/")]
        out.append((group, m, data))
    return out


def text_rule(text):
    """None if the text is in scope, else the reason."""
    code = re.sub(r"%[^\n]*", "", text)
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    if re.search(r"\bfloat\b", code):
        return "float"
    if re.search(r"\bstring\s*:", code):
        return "string parameter"
    for inc in re.findall(r'\binclude\s+"([^"]+)"', code):
        if not os.path.exists(os.path.join(STD, inc)):
            return f"includes a file of its own ({inc})"
    return None


def gecode(model, data, all_solutions):
    cmd = ["minizinc", "--solver", "gecode", "--time-limit", "10000", "--output-mode", "dzn",
           "--output-objective", model] + ([data] if data else []) + (["-a"] if all_solutions else [])
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=30)
    except subprocess.TimeoutExpired:
        return None, "", "timeout (compile)"
    return p.returncode, p.stdout, p.stderr


def reference(model, data):
    """(kind, answer) or (None, reason)."""
    rc, out, err = gecode(model, data, False)
    if rc is None:
        return None, err
    if rc != 0 or ("----------" not in out and "=====UNSATISFIABLE" not in out):
        first = (err.strip().splitlines() or out.strip().splitlines() or ["no answer in 10 s"])
        return None, "gecode: " + " ".join(first[-2:])[:150] if rc != 0 else "gecode: no answer in 10 s"
    if "=====UNSATISFIABLE" in out:
        return "count", "0"
    if "_objective" in out:
        if "==========" not in out:
            return None, "gecode: optimum not proved in 10 s"
        obj = re.findall(r"_objective\s*=\s*(-?\d+)", out)[-1]
        return "optimum", obj
    rc, out, err = gecode(model, data, True)
    if rc == 0 and "==========" in out:
        return "count", str(out.count("----------"))
    return "sat", "1+"


def main():
    os.makedirs(f"{HERE}/models", exist_ok=True)
    log = open(f"{HERE}/selection.tsv", "w")
    log.write("source\torder\tmodel\tdata\tverdict\n")
    n = 0
    tmp = tempfile.mkdtemp()
    for source, mirror, repo, quota in SOURCES:
        commit = git(mirror, "rev-parse", "HEAD").strip()
        files = git(mirror, "ls-tree", "-r", "--name-only", "HEAD").split("\n")
        cands = sorted(candidates(source, mirror, files), key=lambda c: key(source, c[1]))
        taken, groups = 0, set()
        for i, (group, m, data) in enumerate(cands):
            if taken == quota:
                break
            if group in groups:
                continue
            text = git(mirror, "show", f"HEAD:{m}")
            why = text_rule(text)
            if why:
                log.write(f"{source}\t{i}\t{m}\t-\tout: {why}\n"); continue
            mpath = f"{tmp}/{os.path.basename(m)}"
            open(mpath, "w").write(text)
            tries = [None] + sorted(data, key=lambda d: key(source, d))[:3]
            chosen = None
            for d in tries:
                dpath = None
                if d:
                    dtext = git(mirror, "show", f"HEAD:{d}")
                    why = text_rule(dtext)
                    if why:
                        log.write(f"{source}\t{i}\t{m}\t{d}\tout: data {why}\n"); continue
                    dpath = f"{tmp}/data.dzn"
                    open(dpath, "w").write(dtext)
                kind, ans = reference(mpath, dpath)
                if kind is None:
                    log.write(f"{source}\t{i}\t{m}\t{d or '-'}\tout: {ans}\n"); continue
                chosen = (d, dtext if d else None, kind, ans)
                break
            if not chosen:
                continue
            d, dtext, kind, ans = chosen
            n += 1; taken += 1; groups.add(group)
            name = os.path.basename(m)[:-4]
            out = f"{HERE}/models/{n:02d}-{source}-{name}"
            os.makedirs(out, exist_ok=True)
            open(f"{out}/model.mzn", "w").write(text)
            if d:
                open(f"{out}/data.dzn", "w").write(dtext)
            with open(f"{out}/SOURCE", "w") as f:
                f.write(f"model: https://github.com/{repo}/blob/{commit}/{m}\n")
                if d:
                    f.write(f"data: https://github.com/{repo}/blob/{commit}/{d}\n")
                f.write(f"reference (Gecode 6.2.0, MiniZinc 2.6.4): {kind} {ans}\n")
            log.write(f"{source}\t{i}\t{m}\t{d or '-'}\tIN #{n}: {kind} {ans}\n")
            log.flush()
            print(f"{n:02d} {source} {m} {d or '-'} {kind} {ans}", flush=True)
    log.close()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the 55 models of bench/newuser/ (driven by bench/newuser.sh): for each, the file as
written (asis.puz: the .mzn with its .dzn pasted at the end) and the deviated one
(fixed.puz, with the changes of deviations.tsv), each checked against expected.tsv.
Prints a table and the tallies; writes bench/newuser/results.tsv (whole runs only)."""
import argparse, json, os, subprocess, sys, time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from benchlib import loadavg  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def read_tsv(path):
    rows = []
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        for line in f:
            if line.strip() and not line.startswith("#"):
                rows.append(dict(zip(head, line.rstrip("\n").split("\t"))))
    return rows


def run(binary, path, kind, timeout):
    """(status, answer, first error) of one run; answer as expected.tsv writes it."""
    flags = {"count": ["--count"], "sat": ["--first"], "optimum": []}[kind]
    cmd = [binary, "--format", "json", "--timeout", str(timeout)] + flags + [path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return "timeout", "-", ""
    try:
        out = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return "crash", "-", (p.stderr.strip().splitlines() or ["no output"])[-1][:120]
    status = out.get("status")
    if status == "error":
        e = out["errors"][0]
        msg = e["message"].replace(os.path.dirname(path) + "/", "")
        return "error", "-", f"{e.get('line', 0)}:{e.get('column', 0)} {msg}"
    if status == "limit":
        return "limit", "-", out.get("stopped", "")
    if kind == "count":
        return status, str(out.get("count", 0)), ""
    if kind == "sat":
        return status, "1+" if status == "solved" else "0", ""
    if status == "unsatisfiable":
        return status, "unsat", ""
    return status, str(out.get("objective")) if out.get("optimal", True) else "not proven", ""


def verdict(status, answer, expected):
    if status in ("error", "crash"):
        return "-"
    if status in ("timeout", "limit"):
        return "no answer"
    return "agree" if answer == expected else "DISAGREE"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only", help="models whose name contains this")
    a = ap.parse_args()
    expected = {r["model"]: r for r in read_tsv(f"{HERE}/expected.tsv")}
    devs = Counter(r["model"] for r in read_tsv(f"{HERE}/deviations.tsv"))
    names = sorted(expected)
    if a.only:
        names = [n for n in names if a.only in n]
    print(f"load before: {loadavg()}")
    hdr = ("model", "ref", "as written", "answer", "verdict", "devs", "deviated", "answer", "verdict", "first error (as written)")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    rows, t0 = [], time.time()
    for n in names:
        kind, want = expected[n]["kind"], expected[n]["answer"]
        d = f"{HERE}/models/{n}"
        s1, a1, e1 = run(a.bin, f"{d}/asis.puz", kind, a.timeout)
        v1 = verdict(s1, a1, want)
        fixed = f"{d}/fixed.puz"
        if os.path.exists(fixed) and devs[n]:
            s2, a2, e2 = run(a.bin, fixed, kind, a.timeout)
            v2 = verdict(s2, a2, want)
        else:
            s2, a2, v2 = s1, a1, v1
        rows.append((n, kind, want, s1, a1, v1, e1, devs[n], s2, a2, v2))
        print(f"| {n} | {kind} {want} | {s1} | {a1} | {v1} | {devs[n]} | {s2} | {a2} | {v2} | {e1.replace('|', '/')} |", flush=True)
    total = len(rows)
    accepted = sum(r[3] not in ("error", "crash") for r in rows)
    asis_agree = sum(r[5] == "agree" for r in rows)
    dev_agree = sum(r[10] == "agree" for r in rows)
    wrong = [r[0] for r in rows if "DISAGREE" in (r[5], r[10])]
    print()
    print(f"accepted as written: {accepted}/{total}")
    print(f"no deviation needed (as written, and agrees): {asis_agree}/{total}")
    print(f"agree after the deviations: {dev_agree}/{total}")
    print(f"disagree: {len(wrong)} {' '.join(wrong)}")
    print(f"no answer in {a.timeout} s (deviated): {sum(r[10] == 'no answer' for r in rows)}; "
          f"still not running: {sum(r[8] in ('error', 'crash') for r in rows)}")
    print(f"time: {time.time() - t0:.0f} s; load after: {loadavg()}")
    if a.only:
        return 1 if wrong else 0  # results.tsv keeps the last whole run (rank.py reads it)
    with open(f"{HERE}/results.tsv", "w") as f:
        f.write("model\tkind\texpected\tasis_status\tasis_answer\tasis_verdict\tfirst_error\tdeviations\tfixed_status\tfixed_answer\tfixed_verdict\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

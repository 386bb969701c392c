#!/usr/bin/env python3
"""Prints the markdown tables of notes/newuser.md from deviations.tsv, expected.tsv and the
last run's results.tsv: the deviations ranked by how many models each blocks, the models
that would run as written once the top classes are fixed, and the table per model. The
classes of accepted.tsv (those `.puz` has accepted since) are listed apart, unranked.
usage: rank.py [--notes FILE]   (--notes: writes them into FILE, between its
`<!-- rank.py: NAME -->` and `<!-- /rank.py -->` lines, NAME `ranking` or `models`)"""
import io, os, re, sys
from contextlib import redirect_stdout
from collections import defaultdict
from run import read_tsv, HERE

exp = {r["model"]: r for r in read_tsv(f"{HERE}/expected.tsv")}
res = {r["model"]: r for r in read_tsv(f"{HERE}/results.tsv")}
classes = defaultdict(set)
per_model = defaultdict(list)
for r in read_tsv(f"{HERE}/deviations.tsv"):
    if r["class"] == "hopeless":
        continue
    classes[r["class"]].add(r["model"])
    if r["class"] not in per_model[r["model"]]:
        per_model[r["model"]].append(r["class"])
accepted = {r["class"]: r["since"] for r in read_tsv(f"{HERE}/accepted.tsv")}
ranked = sorted(classes, key=lambda c: (c not in accepted, -len(classes[c]), c))

def ranking():
    print("| rank | deviation | models | models it alone blocks | models |")
    print("|---:|---|---:|---:|---|")
    i = 0
    for c in ranked:
        left = lambda m: [k for k in per_model[m] if k not in accepted]
        ms = ", ".join(m.split("-")[0] for m in sorted(classes[c]))
        if c in accepted:
            print(f"| - | {c} (accepted since {accepted[c]}) | {len(classes[c])} | - | {ms} |")
            continue
        i += 1
        alone = sum(1 for m in classes[c] if left(m) == [c])
        print(f"| {i} | {c} | {len(classes[c])} | {alone} | {ms} |")
    print()
    print("Models that would run as written once the classes down to rank k are removed (each")
    print("model counted when every class it needed is gone; a model still wrong or too slow")
    print("after its deviations is not counted):")
    print()
    print("| k | removed | models as written |")
    print("|---:|---|---:|")
    gone = set(accepted)
    ok = {m for m in exp if res.get(m, {}).get("fixed_verdict") == "agree"}
    n = sum(1 for m in ok if set(per_model[m]) <= gone)
    print(f"| 0 | (today: {', '.join(accepted) or 'nothing'} accepted) | {n} |")
    for i, c in enumerate([c for c in ranked if c not in accepted], 1):
        gone.add(c)
        n = sum(1 for m in ok if set(per_model[m]) <= gone)
        print(f"| {i} | {c} | {n} |")


def models():
    print("| model | reference | as written | first error (as written) | deviations | after them |")
    print("|---|---|---|---|---|---|")
    for m in sorted(exp):
        r = res.get(m, {})
        e = r.get("first_error", "").replace("|", "\\|")
        st = "accepted" if r.get("asis_status") not in ("error", "crash") else "no"
        d = "; ".join(per_model[m]) or "none"
        v = f"{r.get('fixed_verdict', '?')} ({r.get('fixed_answer', '?')})"
        if r.get("fixed_status") in ("error", "crash"):
            v = "still an error (given up)"
        print(f"| {m} | {exp[m]['kind']} {exp[m]['answer']} | {st} | {e} | {d} | {v} |")


if "--notes" in sys.argv:
    path = sys.argv[sys.argv.index("--notes") + 1]
    text = open(path).read()
    for name, fn in (("ranking", ranking), ("models", models)):
        buf = io.StringIO()
        with redirect_stdout(buf):
            fn()
        text = re.sub(rf"(<!-- rank.py: {name} -->\n).*?(<!-- /rank.py -->)",
                      lambda m: m.group(1) + "\n" + buf.getvalue() + "\n" + m.group(2), text, flags=re.S)
    open(path, "w").write(text)
else:
    ranking()
    print()
    models()

#!/usr/bin/env python3
"""Prints the markdown tables of notes/newuser.md from deviations.tsv, expected.tsv and the
last run's results.tsv: the deviations ranked by how many models each blocks, the models
that would run as written once the top classes are fixed, and the table per model."""
import os
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
ranked = sorted(classes, key=lambda c: (-len(classes[c]), c))

print("| rank | deviation | models | models it alone blocks | models |")
print("|---:|---|---:|---:|---|")
for i, c in enumerate(ranked, 1):
    alone = sum(1 for m in classes[c] if per_model[m] == [c])
    ms = ", ".join(m.split("-")[0] for m in sorted(classes[c]))
    print(f"| {i} | {c} | {len(classes[c])} | {alone} | {ms} |")
print()
print("Models that would run as written once the classes down to rank k are removed (each")
print("model counted when every class it needed is gone; a model still wrong or too slow")
print("after its deviations is not counted):")
print()
print("| k | removed | models as written |")
print("|---:|---|---:|")
gone = set()
ok = {m for m in exp if res.get(m, {}).get("fixed_verdict") == "agree"}
for i, c in enumerate(ranked, 1):
    gone.add(c)
    n = sum(1 for m in ok if set(per_model[m]) <= gone)
    print(f"| {i} | {c} | {n} |")
print()
print("| model | reference | as written | first error (as written) | deviations | after them |")
print("|---|---|---|---|---|---|")
for m in sorted(exp):
    r = res.get(m, {})
    e = r.get("first_error", "").replace("|", "\\|")
    st = "accepted" if r.get("asis_status") not in ("error", "crash") else "no"
    d = "; ".join(per_model[m]) or "none"
    v = f"{r.get('fixed_verdict', '?')} ({r.get('fixed_answer', '?')})"
    print(f"| {m} | {exp[m]['kind']} {exp[m]['answer']} | {st} | {e} | {d} | {v} |")

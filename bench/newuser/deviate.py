#!/usr/bin/env python3
"""The mechanical deviations, applied to models/NAME/fixed.puz (made from asis.puz when
missing), each recorded as a row of deviations.tsv when it changes the file.
usage: deviate.py NAME OP...   OP: output | data | include | note:CLASS=>CHANGE (a hand edit)"""
import os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def statements(text):
    """(start, end) of each top-level statement (end past its `;` outside brackets), and a code-only copy of
    the text (comments and strings blanked, offsets kept)."""
    code, i, n = list(text), 0, len(text)
    while i < n:
        c = text[i]
        if c == '%':
            j = text.find('\n', i)
            j = n if j < 0 else j
            code[i:j] = ' ' * (j - i); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            code[i:j] = [ch if ch == '\n' else ' ' for ch in text[i:j]]; i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            code[i + 1:j] = ' ' * (j - i - 1); i = j + 1
        else:
            i += 1
    code = ''.join(code)
    out, start, depth = [], 0, 0
    for i, c in enumerate(code):
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif c == ';' and depth == 0:
            out.append((start, i + 1)); start = i + 1
    if code[start:].strip():
        out.append((start, n))
    return out, code


def record(name, cls, change):
    with open(f"{HERE}/deviations.tsv", "a") as f:
        f.write(f"{name}\t{cls}\t{change}\n")


def main():
    name, ops = sys.argv[1], sys.argv[2:]
    d = f"{HERE}/models/{name}"
    path = f"{d}/fixed.puz"
    if not os.path.exists(path):
        open(path, "w").write(open(f"{d}/asis.puz").read())
    for op in ops:
        text = open(path).read()
        stmts, code = statements(text)
        edits = []  # (start, end, replacement)
        if op == "output":
            for s, e in stmts:
                m = re.match(r'\s*output\b', code[s:e])
                if m:
                    edits.append((s + m.start() + len(code[s:e]) - len(code[s:e].lstrip()), e, ""))
            if edits:
                record(name, "output item", f"{len(edits)} `output` item(s) removed")
        elif op == "data":
            moved = []
            decls = {}
            for s, e in stmts:
                c = code[s:e].rstrip(';').rstrip()
                m = re.search(r':\s*([A-Za-z_]\w*)\s*$', c)
                if m and '=' not in c and not re.match(r'\s*(constraint|solve|output|predicate|function|test)\b', c):
                    decls[m.group(1)] = s + len(c)
            for s, e in stmts:
                c = code[s:e]
                m = re.match(r'\s*([A-Za-z_]\w*)\s*=', c)
                if m and m.group(1) in decls:
                    value = text[s + m.end():e].rstrip().rstrip(';')
                    edits.append((decls[m.group(1)], decls[m.group(1)], " =" + value))
                    edits.append((s + m.start(1), e, ""))
                    moved.append(m.group(1))
            if moved:
                record(name, "data: parameter without value", "value moved into the declaration: " + ", ".join(moved))
        elif op == "include":
            for m in re.finditer(r'include\s+"([^"]+)"\s*;?', code):
                inc = text[m.start(1):m.end(1)]
                if inc != "globals.mzn":
                    edits.append((m.start(), m.end(), ""))
                    record(name, "include of a MiniZinc library file", f'`include "{inc}";` removed')
        elif op.startswith("note:"):
            cls, change = op[len("note:"):].split("=>", 1)
            record(name, cls, change)
        else:
            sys.exit(f"unknown op {op}")
        for s, e, r in sorted(edits, reverse=True):
            text = text[:s] + r + text[e:]
        open(path, "w").write(text)


if __name__ == "__main__":
    main()

"""An experiment (notes/nothreeinline.md, seventh pass): the no-three-in-line model of one
symmetry class as CNF for a SAT solver, to see whether clause learning reaches n = 33.

usage: python3 nothreeinline_cnf.py N CLASS MAP > model.cnf
  CLASS: near (Flammenkamp's near-90 class, odd N, diagonal pair on the main diagonal),
         rot4 (90 degrees), rot (180 degrees); MAP receives "row col var" per cell.
Rows and columns exactly 2, slanted lines at most 2, by sequential counters (Sinz 2005).
Check a model with nothreeinline_cnf_check.py N CLASS SOLVER_OUTPUT MAP."""
import sys
from math import gcd
n = int(sys.argv[1]); cls = sys.argv[2] if len(sys.argv) > 2 else "near"
m = n - 1; h = m // 2
def img(t, r, c):
    return [(r, c), (c, m - r), (m - r, m - c), (m - c, r)][t]
def group(r, c):
    if cls == "near":
        return [0, 2] if (r == c or r + c == m) else [0, 1, 2, 3]
    if cls == "rot4":
        return [0, 1, 2, 3]
    return [0, 2]
var = {}
nv = 0
cellvar = {}
for r in range(n):
    for c in range(n):
        rep = min(img(t, r, c) for t in group(r, c))
        if rep not in var:
            nv += 1; var[rep] = nv
        cellvar[(r, c)] = var[rep]
clauses = []
def new():
    global nv
    nv += 1; return nv
def counter(xs, atmost, atleast):
    # sequential counter with registers for j = 1..atmost+1
    K = atmost + 1
    prev = [None] * (K + 1)  # prev[j] literal or None(false)
    for x in xs:
        cur = [None] * (K + 1)
        for j in range(1, K + 1):
            s = new(); cur[j] = s
            if prev[j] is not None: clauses.append([-prev[j], s])
            if j == 1: clauses.append([-x, s])
            elif prev[j - 1] is not None: clauses.append([-x, -prev[j - 1], s])
            if atleast:
                # reverse: s -> prev[j] or x ; s -> prev[j] or prev[j-1]
                a = [-s, x] + ([prev[j]] if prev[j] is not None else [])
                clauses.append(a)
                if j >= 2:
                    b = [-s] + ([prev[j]] if prev[j] is not None else []) + ([prev[j - 1]] if prev[j - 1] is not None else [])
                    clauses.append(b)
        prev = cur
    clauses.append([-prev[K]])
    if atleast:
        clauses.append([prev[atleast]])
seen = set()
def line(cells, exact):
    xs = sorted(cellvar[p] for p in cells)
    key = (tuple(xs), exact)
    if key in seen: return
    seen.add(key)
    if not exact and len(xs) <= 2: return
    counter(xs, 2, 2 if exact else 0)
centre = cellvar[(h, h)]
clauses.append([-centre])
for i in range(n):
    line([(i, c) for c in range(n)], True)
    line([(r, i) for r in range(n)], True)
reach = m // 2
for dr in range(1, reach + 1):
    for dc0 in range(1, reach + 1):
        if gcd(dr, dc0) != 1: continue
        for dc in (dc0, -dc0):
            for r in range(n):
                for c in range(n):
                    if 0 <= r - dr < n and 0 <= c - dc < n: continue
                    pts = []; pr, pc = r, c
                    while 0 <= pr < n and 0 <= pc < n:
                        pts.append((pr, pc)); pr += dr; pc += dc
                    if len(pts) >= 3: line(pts, False)
if cls == "near":
    for r in range(h):
        clauses.append([-cellvar[(r, m - r)]])
print(f"p cnf {nv} {len(clauses)}")
for cl in clauses:
    print(" ".join(map(str, cl)) + " 0")
# cell map for decoding
with open(sys.argv[3], "w") as f:
    for (r, c), v in cellvar.items():
        f.write(f"{r} {c} {v}\n")

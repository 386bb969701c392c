#!/usr/bin/env python3
"""Grades a Sudoku by the human techniques it needs, tried simplest first: singles (naked and
hidden), locked candidates (pointing / claiming), naked and hidden pairs, then triples, X-wing,
swordfish and quads. Gave the "graded here" line of each bench/explain/sudoku/*.puz header.

usage: bench/explain/grade_sudoku.py FILE.puz...   (reads the `given x =` grid; `.` is empty)
"""
import sys, itertools
ROWS=[[(r,c) for c in range(9)] for r in range(9)]
COLS=[[(r,c) for r in range(9)] for c in range(9)]
BOXES=[[(3*b+i,3*d+j) for i in range(3) for j in range(3)] for b in range(3) for d in range(3)]
UNITS=ROWS+COLS+BOXES
PEERS={(r,c):set(x for u in UNITS if (r,c) in u for x in u)-{(r,c)} for r in range(9) for c in range(9)}
def parse(s):
    s=[ch for ch in s if ch in '0123456789.']
    return {(i//9,i%9):(int(ch) if ch not in '0.' else 0) for i,ch in enumerate(s)}
def cands(g):
    return {p:({g[p]} if g[p] else set(range(1,10))-{g[q] for q in PEERS[p] if g[q]}) for p in g}
def assign(C,p,v):
    C[p]={v}
    for q in PEERS[p]: C[q].discard(v)
def singles(C,solved):
    for p in C:
        if p not in solved and len(C[p])==1:
            v=next(iter(C[p])); solved.add(p); assign(C,p,v); return True
    for u in UNITS:
        for v in range(1,10):
            ps=[p for p in u if v in C[p]]
            if len(ps)==1 and ps[0] not in solved:
                solved.add(ps[0]); assign(C,ps[0],v); return True
    return False
def locked(C):
    ch=False
    for b in BOXES:
        for v in range(1,10):
            ps=[p for p in b if v in C[p]]
            if len(ps)<2: continue
            for lines in (ROWS,COLS):
                for l in lines:
                    if all(p in l for p in ps):
                        for q in l:
                            if q not in b and v in C[q]: C[q].discard(v); ch=True
        for lines in (ROWS,COLS):
            pass
    for l in ROWS+COLS:
        for v in range(1,10):
            ps=[p for p in l if v in C[p]]
            if len(ps)<2: continue
            for b in BOXES:
                if all(p in b for p in ps):
                    for q in b:
                        if q not in l and v in C[q]: C[q].discard(v); ch=True
    return ch
def subsets(C,n):
    ch=False
    for u in UNITS:
        open_=[p for p in u if len(C[p])>1]
        for combo in itertools.combinations(open_,n):
            vals=set().union(*(C[p] for p in combo))
            if len(vals)==n:
                for q in open_:
                    if q not in combo and C[q]&vals: C[q]-=vals; ch=True
        vals_open=[v for v in range(1,10) if sum(v in C[p] for p in open_)>=1 and not any(C[p]=={v} for p in u)]
        for combo in itertools.combinations(vals_open,n):
            ps=[p for p in open_ if C[p]&set(combo)]
            if len(ps)==n:
                for p in ps:
                    if C[p]-set(combo): C[p]&=set(combo); ch=True
    return ch
def fish(C,n):
    ch=False
    for v in range(1,10):
        for base,cover,idx,oidx in ((ROWS,COLS,0,1),(COLS,ROWS,1,0)):
            lines=[]
            for l in base:
                ps=[p for p in l if v in C[p] and len(C[p])>1]
                if 2<=len(ps)<=n: lines.append(ps)
            for combo in itertools.combinations(lines,n):
                cs=set(p[oidx] for ps in combo for p in ps)
                if len(cs)==n:
                    rows=set(ps[0][idx] for ps in combo)
                    for o in cs:
                        for q in cover[o]:
                            if q[idx] not in rows and v in C[q] and len(C[q])>1: C[q].discard(v); ch=True
    return ch
def grade(s):
    g=parse(s); C=cands(g); solved={p for p in g if g[p]}
    level=0
    while len(solved)<81:
        if any(len(C[p])==0 for p in C): return 'contradiction',level
        if singles(C,solved): level=max(level,1); continue
        if locked(C): level=max(level,2); continue
        if subsets(C,2): level=max(level,3); continue
        if subsets(C,3): level=max(level,4); continue
        if fish(C,2): level=max(level,5); continue
        if fish(C,3) or subsets(C,4): level=max(level,6); continue
        return 'stuck',level
    return 'solved',level
NAMES={1:'singles',2:'locked candidates',3:'pairs',4:'triples',5:'X-wing',6:'swordfish/quads'}
def given_grid(path):
    lines=open(path).read().splitlines()
    at=next(i for i,l in enumerate(lines) if l.startswith('given x ='))
    return ''.join(''.join(l.split()) for l in lines[at+1:at+10])
if __name__=='__main__':
    for path in sys.argv[1:]:
        s=given_grid(path)
        st,l=grade(s)
        verdict='needs '+NAMES[l] if st=='solved' else 'not solved by these techniques'
        print(f'{path}: {81-s.count(".")} givens, {verdict}')

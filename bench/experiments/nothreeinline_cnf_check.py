"""Decodes a SAT solver's model of nothreeinline_cnf.py and checks it from the definition."""
import sys
n=int(sys.argv[1]); cls=sys.argv[2]; out=open(sys.argv[3]).read().split()
true=set(int(x) for x in out if x.lstrip('-').isdigit() and int(x)>0)
pts=[]
for l in open(sys.argv[4]):
    r,c,v=map(int,l.split())
    if v in true: pts.append((r,c))
ok=len(pts)==2*n and all(sum(1 for p in pts if p[0]==i)==2 and sum(1 for p in pts if p[1]==i)==2 for i in range(n))
for i,a in enumerate(pts):
    for j in range(i+1,len(pts)):
        b=pts[j]
        for c in pts[j+1:]:
            if (b[0]-a[0])*(c[1]-a[1])==(b[1]-a[1])*(c[0]-a[0]): ok=False
print("valid" if ok else "INVALID", len(pts))

#!/usr/bin/env python3
"""Brute force for the language probes of tests/language/.

Each probe NAME.puz (and its MiniZinc twin NAME.mzn) has a function here that enumerates every
assignment of the probe's small domains and checks the constraints written plainly in Python,
independently of cpsolve and of MiniZinc. MiniZinc's semantics are followed where they matter:
`div` and `mod` truncate; an undefined sub-expression (an array index out of range, min or max of
an empty set) makes its nearest enclosing Boolean context false (relational semantics); an `if`
without `else` in a Boolean context is true when its condition is false.

    python3 tests/language/brute.py            # print NAME<TAB>MODE<TAB>VALUE for every probe
    python3 tests/language/brute.py NAME ...   # only these
    python3 tests/language/brute.py --check    # compare with expected.tsv; exit 1 on a difference

MODE is `count` (the number of solutions), `optimum` (the proven optimum) or `unsat`.
"""

import os
import sys
from itertools import combinations, permutations, product

HERE = os.path.dirname(os.path.abspath(__file__))
PROBES = {}


def probe(function):
    PROBES[function.__name__] = function
    return function


def tmod(a, b):
    """MiniZinc's mod: the sign of the dividend (truncating division)."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def subsets(universe):
    """Every subset of `universe`, as frozensets."""
    items = list(universe)
    return [frozenset(c) for k in range(len(items) + 1) for c in combinations(items, k)]


def count(predicate, *domains):
    n = sum(1 for values in product(*domains) if predicate(*values))
    return ("unsat", "-") if n == 0 else ("count", n)


def optimum(objective, sense, candidates):
    values = [objective(c) for c in candidates]
    if not values:
        return ("unsat", "-")
    return ("optimum", max(values) if sense == "max" else min(values))


R = lambda lo, hi: range(lo, hi + 1)  # noqa: E731  lo..hi


# ---- if/elseif/else ----


@probe
def if_stmt():
    def ok(x, y, z):
        if x > 3:
            return y == 1
        elif x == 2:
            return y > 3
        return y != z

    return count(ok, R(1, 5), R(1, 5), R(1, 5))


@probe
def if_reified():
    return count(lambda x, y, z: ((y == 1) if x > 2 else (y == 2)) or z == 3, R(1, 4), R(1, 4), R(1, 4))


@probe
def if_reified_elseif():
    def ok(x, y, z):
        first = (z == 1) if x == 1 else (z == 2) if x == 2 else (y == z)
        if first:
            return False
        cond = (x > 2) if y > z else (x == 1) if y == z else True
        if cond and z == 4:
            return False
        ones = sum(1 for i in R(1, 3) if x > i)
        last = (z < 3) if y < 3 else (z > 2)
        return ones + int(last) >= 2

    return count(ok, R(1, 4), R(1, 4), R(1, 4))


@probe
def if_int():
    def ok(x1, x2, x3, x4, y):
        x = [x1, x2, x3, x4]
        if y != (x1 if x1 > 2 else 0):
            return False
        if sum(v if v > 2 else 1 if v == 2 else 0 for v in x) != 5:
            return False
        return x2 + (2 if x3 == x4 else -1) >= y

    return count(ok, R(1, 4), R(1, 4), R(1, 4), R(1, 4), R(0, 4))


@probe
def if_const_forall():
    def ok(*x):
        for i in R(1, 5):
            if i == 1:
                good = x[0] <= 2
            elif i % 2 == 0:
                good = x[i - 1] > x[i - 2]
            else:
                good = x[i - 1] != x[i - 2]
            if not good:
                return False
            if i > 3 and not x[i - 1] <= 3:  # if without else: true when i <= 3
                return False
        return True

    return count(ok, *[R(1, 4)] * 5)


@probe
def if_noelse_reified():
    def ok(x, y, z):
        first = (not (x > 2) or y == 1) or z == 3  # if without else: true when x <= 2
        inner = (z > 1) if y == 2 else (z > 2) if y == 3 else True
        return first and (inner or x == 4)

    return count(ok, R(1, 4), R(1, 4), R(1, 4))


@probe
def if_opt():
    def cost(x):
        return sum(3 * v if v > 3 else v * i if v > 1 else 5 for i, v in enumerate(x, start=1))

    candidates = [x for x in product(R(0, 5), repeat=4) if sum(x) == 12 and len(set(x)) == 4]
    return optimum(cost, "min", candidates)


# ---- let ----


@probe
def let_const():
    return count(lambda x, y: x + y <= 7 and x * 2 >= y + 3 and x != 2 and y != 4, R(0, 9), R(0, 9))


@probe
def let_varexpr():
    def ok(x1, x2, x3):
        s = x1 + x2
        if not (3 < s < 8 and s != x3 + 2):
            return False
        x = [x1, x2, x3]
        return all(-1 <= x[i + 1] - x[i] <= 2 for i in range(2))

    return count(ok, R(0, 5), R(0, 5), R(0, 5))


@probe
def let_var_forall():
    # t_i is fresh in each iteration, with domain 1..10 and t_i = x_i + i: it exists exactly
    # when x_i + i lies in 1..10, and is then unique (so it adds no solutions).
    def ok(*x):
        for i in R(1, 4):
            t = x[i - 1] + i
            if not (1 <= t <= 10 and t % 2 == 0):
                return False
        u = sum(x)
        return 0 <= u <= 24 and u <= 15

    return count(ok, *[R(1, 6)] * 4)


@probe
def let_var_reified():
    # the let variables s and t are functions of x, y (s = x + y, t = a + 1): a solution is an
    # assignment of x, y, z; the let's constraint is part of the condition it stands in
    def evensucc(a):
        t = a + 1
        return 1 <= t <= 6 and t % 2 == 0

    def ok(x, y, z):
        s = x + y
        return ((0 <= s <= 10 and s > 6) or z == 1) and (evensucc(x) or evensucc(y)) and x != z

    return count(ok, R(0, 5), R(0, 5), R(0, 5))


@probe
def let_membership():
    def ok(x, y):
        return (x in {1, 3} or y == 2) and y in {2, 4, 5} and (x in R(2, 4) or y > x)

    return count(ok, R(1, 5), R(1, 5))


@probe
def let_array_index():
    def ok(x1, x2, x3, y):
        x = [x1, x2, x3]
        if any(x[i - 1] == [i, i + 1][y - 1] for i in R(1, 3)):
            return False
        return x[y - 1] + x[y] >= 5

    return count(ok, R(1, 4), R(1, 4), R(1, 4), R(1, 2))


@probe
def let_var_free():
    # a solution is an assignment of x and y for which the let variables can take some value
    def ok(x, y):
        each = all(any(x + y >= t + i for t in R(0, 2)) for i in R(1, 2))
        some_u = any(u >= x and u + y <= 4 for u in R(0, 3))
        return each and some_u

    return count(ok, R(0, 3), R(0, 3))


@probe
def let_nested():
    def ok(x, y, z):
        if not (2 * (x + 1) > y + z):
            return False
        r = x + y - z > 0
        if r and x == z:
            return False
        w = x + z  # w in 0..12 holds for every x, z in 0..6
        return 0 <= w <= 12 and w - y >= 1

    return count(ok, R(0, 6), R(0, 6), R(0, 6))


# ---- predicates and functions ----


@probe
def pred_basic():
    def between(v, lo, hi):
        return lo <= v <= hi

    def ok(x, y, z):
        return (
            between(x, 2, 5)
            and not between(y, 3, 4)
            and (not between(z, 1, 3) or 2 * y > z + 2)
            and (between(x, 5, 6) or 2 * x == y + z)
            and (between(min(x + y, 8), 7, 8) == (z != 2))
        )

    return count(ok, R(1, 6), R(1, 6), R(1, 6))


@probe
def pred_arrays():
    w = [3, 1, 2]

    def ok(g11, g12, g13, g21, g22, g23, r1, r2, r3):
        g = [[g11, g12, g13], [g21, g22, g23]]
        r = [r1, r2, r3]
        return (
            r1 <= r2 <= r3
            and all(g[0][j] + g[1][j] == r[j] for j in range(3))
            and sum(g[0]) > sum(g[1])
            and sum(a * b for a, b in zip(w, r)) <= 12
            and not (g21 <= g22 <= g23)
        )

    return count(ok, *[R(0, 2)] * 6, *[R(0, 3)] * 3)


@probe
def pred_sets():
    odd = {1, 3, 5}

    def ok(*x):
        return (
            x[0] in odd
            and x[1] not in {2, 4}
            and sum(1 for v in x if v in odd) == 2
            and (2 <= x[2] <= 4 or 2 <= x[3] <= 4)
        )

    return count(ok, *[R(1, 6)] * 4)


@probe
def func_fib():
    fibs = [0, 1]
    while len(fibs) < 10:
        fibs.append(fibs[-1] + fibs[-2])

    def ok(x, y, a1, a2, a3, a4):
        return (
            x + y == fibs[8]
            and all(x != fibs[i] for i in R(1, 6))
            and tmod(y, fibs[4]) == 0
            and min(a1, a2, a3, a4) > 0
        )

    return count(ok, R(0, 21), R(0, 21), *[R(0, 2)] * 4)


@probe
def func_divmod():
    def tdiv(a, b):
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b > 0) else -q

    def ok(x, y):
        return tdiv(x, 3) + tmod(y, 3) == -1 and tmod(x + y, 2) != 0

    return count(ok, R(-6, 6), R(-6, 6))


@probe
def pred_scope():
    def ok(x, y, z):
        return y > 3 and not x > 3 and z == y + x and x * x + 1 <= z + 3

    return count(ok, R(1, 8), R(1, 8), R(0, 20))


@probe
def func_const():
    # sq(2) = 4 variables in 0..fib(4) = 0..3
    def ok(*x):
        return all(x[i - 1] > 0 for i in R(1, 4) if i % 2 == 1) and sum(x[i - 1] for i in R(1, 4) if i % 2 == 0) == 3

    return count(ok, *[R(0, 3)] * 4)


@probe
def pred_let_var():
    # h = v / 2 exists in 0..3 exactly when v is even and at most 6; it is then unique
    def even_upto(v, top):
        return v % 2 == 0 and 0 <= v // 2 <= 3 and v // 2 <= top

    def ok(x1, x2, x3, y):
        return all(even_upto(v, 2) for v in (x1, x2, x3)) and even_upto(y, 3) and y != x1 + x2

    return count(ok, R(0, 4), R(0, 4), R(0, 4), R(0, 6))


@probe
def pred_unsat():
    return count(lambda *d: len(set(d)) == 4, *[R(1, 3)] * 4)


@probe
def include_lib():
    return count(lambda *x: all(x[i] < x[i + 1] for i in range(3)) and x[3] - x[0] <= 5, *[R(1, 9)] * 4)


# ---- exists, forall, xorall, generator calls ----


@probe
def gen_empty():
    def ok(*x):
        x = (None,) + x
        return (
            all(x[i] == 9 for i in R(1, 0))
            and not any(x[i] == 1 for i in R(2, 1))
            and sum(x[i] for i in R(1, 3) if i > 5) == 0
            and (sum(x[i] == 1 for i in R(1, 3) if i > 3) % 2 == 1 or x[1] == 2)
        )

    return count(ok, R(1, 3), R(1, 3), R(1, 3))


@probe
def list_funcs():
    def ok(*x):
        return (
            any(v == 4 for v in x)
            and all(x[i] != x[i + 1] for i in range(4))
            and sum(v == 1 for v in x) % 2 == 1
            and (int(x[0] > 2) + int(x[4] > 2) + int(x[2] == 2)) % 2 == 1
            and not any(x[i] + x[i + 1] == 7 for i in range(4))
        )

    return count(ok, *[R(1, 4)] * 5)


@probe
def gen_calls():
    n = 6

    def ok(*x):
        x = (None,) + x  # 1-based
        return (
            any(x[i] == 3 for i in R(1, n))
            and all(x[i] != x[j] or x[i] == 1 for i in R(1, n) for j in R(1, n) if i < j and j - i == 2)
            and sum(x[i] == 2 for i in R(1, n)) % 2 == 1
            and sum(x[i] for i in R(1, n) if i != 2) >= 9
            and max(x[i] * i for i in R(1, n)) <= 15
            and min(x[i] + i for i in R(2, n) if i % 2 == 0) >= 4
        )

    return count(ok, *[R(1, 3)] * n)


@probe
def gen_reified():
    n = 5

    def ok(*x):
        x = (None,) + x
        return (
            (not x[1] > 2 or all(x[i] < x[1] for i in R(2, n)))
            and not any(x[i] == 3 and x[i + 1] == 3 for i in R(1, n - 1))
            and sum(x[i] > 1 for i in R(1, n) if i % 2 == 0) % 2 == 1
            and int(all(x[i] == 1 for i in R(1, 2))) + int(any(x[i] == 2 for i in R(4, n))) >= 1
        )

    return count(ok, *[R(1, 3)] * n)


@probe
def gen_count():
    n = 5

    def ok(*x):
        x = (None,) + x
        return (
            sum(x[i] == 1 for i in R(1, n)) == 2
            and sum(x[i] > x[1] for i in R(1, n) if i != 3) >= 1
            and sum(x[i] == 3 for i in R(1, n)) <= 1
        )

    return count(ok, *[R(1, 3)] * n)


@probe
def gen_sum_opt():
    w = [4, 2, 7, 1, 5, 3]
    candidates = [
        x for x in product(R(0, 3), repeat=6) if sum(x) <= 7 and all(x[i] + x[i + 1] <= 4 for i in range(5))
    ]
    objective = lambda x: sum(w[i] * x[i] for i in range(6) if w[i] > 2) - sum(x[i] for i in range(6) if w[i] <= 2)  # noqa: E731
    return optimum(objective, "max", candidates)


# ---- enums, named sets, membership ----


@probe
def enum_domain():
    red, green, blue, white = 1, 2, 3, 4

    def ok(*c):
        return (
            all(c[i] != c[i + 1] for i in range(4))
            and c[0] < c[4]
            and c[2] != green
            and (c[1] >= blue or c[3] == red)
        )

    return count(ok, *[[red, green, blue, white]] * 5)


@probe
def enum_index():
    red, green, blue, white = 1, 2, 3, 4
    colours = [red, green, blue, white]

    def ok(xr, xg, xb, xw, c):
        x = {red: xr, green: xg, blue: xb, white: xw}
        return (
            all(x[r] != 2 for r in colours)
            and all(x[r] <= x[s] + 1 for r in colours for s in colours if r < s)
            and (x[red] + x[blue] == 5 or x[green] == 4)
            and x[c] == 3
            and sum(x[r] for r in colours if r != green) >= 6
        )

    return count(ok, R(1, 5), R(1, 5), R(1, 5), R(1, 5), colours)


@probe
def enum_2d():
    mon, tue, wed = 1, 2, 3
    n = 0
    for bits in product((0, 1), repeat=9):
        g = {(d, s): bits[(d - 1) * 3 + (s - 1)] for d in (mon, tue, wed) for s in R(1, 3)}
        n += (
            all(sum(g[d, s] for s in R(1, 3)) == 1 for d in (mon, tue, wed))
            and all(sum(g[d, s] for d in (mon, tue, wed)) <= 2 for s in R(1, 3))
            and all(g[d, 1] == 0 for d in (mon, tue, wed) if d > mon)
            and (g[mon, 3] == 0 or g[wed, 3] == 1)
        )
    return ("count", n)


@probe
def enum_globals():
    mon, tue, wed, thu, fri, sat = days = (1, 2, 3, 4, 5, 6)

    def ok(d1, d2, d3, *load):
        d = [d1, d2, d3]
        return (
            len(set(d)) == 3
            and d.count(wed) == 0
            and (d1 <= tue or d2 <= tue)
            and all(load[k - 1] == d.count(k) for k in days)
            and max(load[k - 1] + int(k == sat) for k in days) <= 1
        )

    return count(ok, days, days, days, *[R(0, 2)] * 6)


@probe
def named_sets():
    odd = [1, 3, 5, 7]
    n = 0
    for x in product(odd, repeat=3):
        for bits in product((0, 1), repeat=12):
            y = [bits[0:4], bits[4:8], bits[8:12]]
            if any(sum(row) != 1 for row in y):
                continue
            if any(x[r] != sum((c + 1) * y[r][c] for c in range(4)) * 2 - 1 for r in range(3)):
                continue
            if any(x.count(v) > 2 for v in odd):
                continue
            if any(sum(y[r][c - 1] for r in range(3)) > 1 for c in R(1, 4) if c in odd):
                continue
            n += 1
    return ("count", n)


@probe
def membership():
    S = {2, 3, 5, 7}
    Rg = set(R(4, 8))

    def ok(x, y, z, w):
        return (
            1 <= x <= 5
            and y in {1, 3, 6, 8}
            and z in S
            and w not in S
            and (x not in S or y > 1)
            and ((z == 2) if w in {0, 1} else (z > x))
            and int(x in Rg) + int(y in Rg) + int(w in Rg) >= 1
        )

    return count(ok, *[R(0, 8)] * 4)


# ---- constants of any dimension ----


@probe
def const3d():
    t = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
    d = [[[i * j + k for k in R(1, 3)] for j in R(1, 3)] for i in R(1, 2)]
    m = [[(i + 2 * j) % 4 for j in R(1, 3)] for i in R(1, 3)]

    def ok(i, j, k, p, q, r):
        tv = t[i - 1][j - 1][k - 1]
        dv = d[p - 1][q - 1][r - 1]
        return tv > 2 and tmod(dv, 2) == 0 and tv != dv and m[q - 1][r - 1] + t[k - 1][j - 1][i - 1] >= 4

    return count(ok, R(1, 2), R(1, 2), R(1, 2), R(1, 2), R(1, 3), R(1, 3))


@probe
def regular_comp():
    def accepts(word, table, start, final):
        q = start
        for s in word:
            q = table[q - 1][s - 1]
            if q == 0:
                return False
        return q in final

    t1 = [[0 if q == s + 1 else s + 1 for s in R(1, 3)] for q in R(1, 4)]
    t2 = [[(q + 1 if q < 3 else 0) if s == 3 else q for s in R(1, 3)] for q in R(1, 3)]
    n = 0
    for x in product(R(1, 3), repeat=6):
        by_automata = accepts(x, t1, 1, set(R(1, 4))) and accepts(x, t2, 1, {3})
        plainly = all(x[i] != x[i + 1] for i in range(5)) and x.count(3) == 2
        assert by_automata == plainly, x
        n += by_automata
    return ("count", n)


# ---- set variables ----


@probe
def set_card_in():
    def ok(s, x):
        return len(s) == 3 and x in s and (1 not in s or 2 not in s) and (x > 2 or 6 in s)

    return count(ok, subsets(R(1, 6)), R(1, 6))


@probe
def set_ops():
    def ok(s, t, u):
        return s <= t and u >= (t - s) and len(s | u) == 3 and len(s & u) <= 1 and (s ^ u) != t and s != t

    sets = subsets(R(1, 4))
    return count(ok, sets, sets, sets)


@probe
def set_eq():
    U = frozenset(R(1, 4))

    def ok(a, b, c):
        return c == a | b and a & b == {2} and c != U and len(a) >= len(b)

    sets = subsets(U)
    return count(ok, sets, sets, sets)


@probe
def set_minmax():
    def ok(s, lo, hi):
        # lo == min(s) at the root: false when s is empty (min undefined)
        return bool(s) and lo == min(s) and hi == max(s) and hi - lo <= 3 and len(s) >= 2

    return count(ok, subsets(R(1, 7)), R(1, 7), R(1, 7))


@probe
def set_minmax_empty():
    def ok(s, x):
        first = (bool(s) and min(s) >= 3) or x == 1
        second = (bool(s) and max(s) != 2) or len(s) == 0
        return first and second

    return count(ok, subsets(R(1, 4)), R(1, 3))


@probe
def set_disjoint():
    def ok(s1, s2, s3, a, b):
        return (
            not (s1 & s2) and not (s1 & s3) and not (s2 & s3)
            and len(s1) == 2
            and not (a & b)
            and len(a) + len(b) == len(s2) + 1
        )

    big, small = subsets(R(1, 4)), subsets(R(1, 3))
    return count(ok, big, big, big, small, small)


@probe
def set_partition():
    U = frozenset(R(1, 5))

    def ok(s1, s2, s3):
        return (
            not (s1 & s2) and not (s1 & s3) and not (s2 & s3)
            and (s1 | s2 | s3) == U
            and len(s1) <= len(s2) <= len(s3)
            and 1 in s3
        )

    sets = subsets(U)
    return count(ok, sets, sets, sets)


@probe
def set_reified():
    def ok(s, t, x):
        return (
            ((x == 1) if 2 in s else (x >= 2))
            and (s <= t or len(t) == 4)
            and (s != t or x == 3)
            and sum(s) + x <= 7
        )

    sets = subsets(R(1, 4))
    return count(ok, sets, sets, R(1, 3))


@probe
def set_var_index():
    def ok(s1, s2, s3, k):
        S = {1: s1, 2: s2, 3: s3}
        return 2 in S[k] and len(S[k]) == k and len(s1) <= 1 and len(s2) <= 1

    sets = subsets(R(1, 3))
    return count(ok, sets, sets, sets, R(1, 3))


@probe
def set_opt():
    w = [3, 1, 4, 1, 5, 9]
    candidates = []
    for s in subsets(R(1, 6)):
        if not s or max(s) - min(s) > 3:  # max and min of {} are undefined: the constraint is false
            continue
        if sum(w[i - 1] for i in s) > 10:
            continue
        candidates.append((s, frozenset({1, 2, 3}) - s))
    return optimum(lambda st: 2 * len(st[0]) + len(st[1]), "max", candidates)


@probe
def set_member_var():
    def ok(s, x):
        return (x in s or x == 0) and (x + 1) not in s and len(s) <= 2

    return count(ok, subsets(R(1, 4)), R(0, 6))


@probe
def set_const_ops():
    def ok(s1, s2, s3, t):
        return (
            (s1 | s2 | s3) == frozenset(R(1, 4))
            and {1} <= s1
            and s2 <= frozenset(R(2, 4))
            and t == frozenset({1, 2}) ^ s3
            and len(t - {4}) >= 2
        )

    sets = subsets(R(1, 4))
    return count(ok, sets, sets, sets, sets)


@probe
def set_literal_vars():
    return count(lambda x, y, s: {x, y} <= s and len(s) == 2, R(1, 4), R(1, 4), subsets(R(1, 4)))


@probe
def set_empty():
    sets = subsets(R(1, 3))
    return count(lambda s, t: not (s & t) and s != frozenset(), sets, sets)


@probe
def set_enum():
    U = frozenset(R(1, 4))

    def ok(sa, sb, sc):
        parts = [sa, sb, sc]
        pairwise = all(not (parts[i] & parts[j]) for i in range(3) for j in range(i + 1, 3))
        return pairwise and (sa | sb | sc) == U and all(len(p) >= 1 for p in parts) and 1 in sa

    sets = subsets(U)
    return count(ok, sets, sets, sets)


@probe
def set_range_intersect():
    sets = subsets(R(0, 5))
    return count(lambda s, t: t == frozenset(R(1, 4)) & s and len(t) == 2 and len(s & {0, 1}) == 1, sets, sets)


@probe
def set_min_not_in():
    def ok(s, t, x):
        # min(t) and max(t) are undefined on {}: each relation holding one is then false
        c1 = not (bool(t) and min(t) in (frozenset({1, 2}) - s))
        c2 = (bool(t) and max(t) != x) or len(t) <= 1
        return c1 and c2

    sets = subsets(R(0, 2))
    return count(ok, sets, sets, R(0, 2))


@probe
def set_unsat():
    def ok(s, t):
        return len(s) == 3 and s <= t and 3 not in t and 4 not in t and 5 not in t

    sets = subsets(R(1, 5))
    return count(ok, sets, sets)


# ---- search annotations ----


@probe
def search_count():
    n = 7
    solutions = 0
    for q in permutations(R(1, n)):
        if len({q[i] + i for i in range(n)}) == n and len({q[i] - i for i in range(n)}) == n:
            solutions += 1
    return ("count", solutions)


@probe
def search_names():
    def ok(*v):
        x, b1, b2 = v[:9], v[9], v[10]
        return (
            all(x[i] != x[i + 1] for i in range(8))
            and sum(x) == 17
            and (not b1 or x[0] == 3)
            and (b2 == (x[8] > x[0]))
        )

    return count(ok, *[R(1, 3)] * 9, (False, True), (False, True))


@probe
def search_opt():
    candidates = [
        x
        for x in product(R(1, 9), repeat=5)
        if len(set(x)) == 5 and x[0] + x[1] + x[2] == 15 and x[3] * 2 >= x[4] + 3 and x[0] < x[2]
    ]
    return optimum(lambda x: 10 * x[4] - x[3] + abs(x[0] - x[1]), "min", candidates)


# ---- MiniZinc's statement forms ----


@probe
def mzn_forms():
    def ok(*x):
        return x[0] + x[3] == 6 and all(x[i] != x[i + 1] for i in range(3)) and sum(x) <= 12

    return count(ok, *[R(1, 5)] * 4)


@probe
def mzn_minimize():
    candidates = [
        (x, y, z) for x, y, z in product(R(0, 9), repeat=3) if x + 2 * y + 3 * z >= 20 and x != y and y != z
    ]
    return optimum(lambda v: v[0] ** 2 + v[1] ** 2 + v[2] ** 2, "min", candidates)


# ---- relational semantics, constant indices in where ----


@probe
def oob_condition():
    def ok(x1, x2, x3, i, j, k):
        x = {1: x1, 2: x2, 3: x3}
        # each relation with an out-of-range x[...] is false (its nearest Boolean context)
        c1 = (i in x and x[i] == 2) or i == 0
        c2 = not (j in x and x[j] == 3)
        cond = i in x and x[i] > 1
        c3 = (j >= 2) if cond else (j <= 2)
        c4 = k in x and x[k] != 1
        return c1 and c2 and c3 and c4

    return count(ok, R(1, 3), R(1, 3), R(1, 3), R(0, 4), R(0, 4), R(0, 4))


@probe
def oob_const():
    a = {1: 4, 2: 5, 3: 6}
    b = {1: 1, 2: 7}

    def ok(x, y, z):
        # a[b[2]] is a[7]: undefined, so each relation holding it is false
        c1 = (b[2] in a and x == a[b[2]]) or x <= 3
        c2 = not (b[2] in a and y == a[b[2]])
        c3 = all((b[i] in a and a[b[i]] != z) or z == 3 for i in (1, 2))
        return c1 and c2 and c3

    return count(ok, R(1, 9), R(1, 9), R(1, 3))


@probe
def oob_guarded():
    def ok(x1, x2, x3, i, j):
        x = {1: x1, 2: x2, 3: x3}
        first = (i in x and x[i] == 2) if i >= 1 else (x1 == 1)
        second = not (j <= 3) or (j in x and x[j] != 3)
        return first and second

    return count(ok, R(1, 3), R(1, 3), R(1, 3), R(0, 3), R(1, 4))


@probe
def oob_if_int():
    def ok(x1, x2, x3, i, j, y):
        x = {1: x1, 2: x2, 3: x3}
        # the if's value is defined where the branch taken is
        if i >= 1:
            if i not in x or y != x[i]:
                return False
        elif y != 0:
            return False
        # the sum is undefined when j + 2 leaves 1..3: that relation is then false
        total = None if any(j + k not in x for k in (1, 2)) else sum(x[j + k] for k in (1, 2))
        return (total is not None and total >= 4) or j == 2

    return count(ok, R(1, 3), R(1, 3), R(1, 3), R(0, 3), R(0, 2), R(0, 3))


@probe
def oob_const_array():
    a = {1: 3, 2: 1, 3: 2}
    m = {(1, 1): 1, (1, 2): 2, (2, 1): 3, (2, 2): 4}

    def ok(i, j, k):
        c1 = (i in a and a[i] >= 2) or i == 4
        c2 = not ((j, k) in m and m[j, k] == 4)
        cond = k in a and a[k] == 1
        c3 = (j == 2) if cond else (j != 2)
        return c1 and c2 and c3

    return count(ok, R(0, 4), R(0, 4), R(0, 3))


@probe
def oob_not_in():
    def ok(a1, a2, a3, x, y):
        a = {1: a1, 2: a2, 3: a3}
        c1 = not (x in a and a[x] in {1})
        c2 = not (y in a and a[y] in R(0, 2)) or y == 2
        return c1 and c2

    return count(ok, R(0, 1), R(0, 1), R(0, 1), R(0, 4), R(0, 4))


@probe
def oob_linear():
    c = {1: 2, 2: 0, 3: 3}

    def ok(x, a1, a2, a3):
        a = [a1, a2, a3]
        c1 = any(x in c and a[i] != 3 * c[x] for i in range(3))
        c2 = (x in c and a1 + a2 + c[x] * 2 >= 5) or a3 == 0
        return c1 and c2

    return count(ok, R(0, 3), R(0, 2), R(0, 2), R(0, 2))


@probe
def oob_not_in_set():
    def ok(a1, a2, a3, y, t):
        a = {1: a1, 2: a2, 3: a3}
        return not (y in a and a[y] in t) and len(t) == 2

    return count(ok, R(0, 2), R(0, 2), R(0, 2), R(0, 4), subsets(R(0, 2)))


@probe
def where_index():
    a = [5, 1, 4, 2, 3]
    b = [4, 3, 2, 1, 5]
    A = lambda i: a[i - 1]  # noqa: E731  1-based
    B = lambda i: b[i - 1]  # noqa: E731

    def ok(*x):
        X = lambda i: x[i - 1]  # noqa: E731
        return (
            all(X(i) != 1 for i in R(1, 5) if A(B(i)) > 2)
            and sum(X(i) for i in R(1, 5) if tmod(A(B(i)), 2) == 0) == 4
            and sum(X(i) for i in R(1, 5) if B(A(i)) >= 3) >= 5
        )

    return count(ok, *[R(1, 3)] * 5)


# ---- MiniZinc's spellings (issue 49): typed and defined names, 2-d literals, layout ----


@probe
def mzn_typed_decls():
    def ok(*x):
        z, w = x[0] + 2 * x[1], x[0] + x[2]
        return (
            len(set(x)) == 3 and 1 <= w <= 9 and all(2 <= v <= 3 for v in x[:2]) and z >= 7 and w >= 2
        )

    return count(ok, *[R(1, 3)] * 3)


@probe
def defined_names():
    def ok(*x):
        y = [x[i] + i + 1 for i in range(3)]
        return len(set(y)) == 3 and sum(x) <= 6 and x[0] - x[2] != 0

    return count(ok, *[R(1, 3)] * 3)


@probe
def array2d_literal():
    a = [[1, 2, 3], [4, 5, 6]]
    # At the top level an index out of range restricts the variable (x[1] has 1..3, a has 2 rows).
    return count(lambda i, j: i <= 2 and a[i - 1][j - 1] >= 3, R(1, 3), R(1, 3))


@probe
def mzn_layout():
    candidates = [x for x in permutations(R(1, 4)) if x[0] < x[1]]
    return optimum(lambda x: x[0] + 2 * x[3], "max", candidates)


@probe
def count_bool_eq():
    def ok(*x):
        c = sum(1 for v in x if v == 2)
        b = False
        return b == (c >= 2)

    return count(ok, *[R(1, 3)] * 4)


@probe
def assert_holds():
    return count(lambda *x: len(set(x)) == 3, *[R(1, 3)] * 3)


def read_expected():
    rows = {}
    with open(os.path.join(HERE, "expected.tsv")) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#") or line.startswith("name\t"):
                continue
            name, mode, value = line.split("\t")
            rows[name] = (mode, value)
    return rows


@probe
def array_coerce():
    # x = array2d(0..1, 0..2, v): x[i, j] is v[3 * i + j] (row-major from the declared indices).
    def ok(*v):
        x = {(i, j): v[3 * i + j] for i in R(0, 1) for j in R(0, 2)}
        rising = all(x[i, j] > x[i, j - 1] for i in R(0, 1) for j in R(1, 2))
        return len(set(v)) == 6 and rising and x[1, 0] > x[0, 1]

    return count(ok, *[R(0, 6)] * 6)


@probe
def array_offsets():
    t = {(i, j): 2 * i + j for i in R(0, 2) for j in R(1, 2)}
    u = {-1: 7, 0: 8, 1: 9}
    w = {(0, 0): 0, (0, 1): 1, (1, 0): 1, (1, 1): 0}

    def ok(q0, q1, q2, q3, k, r):
        q = [q0, q1, q2, q3]
        # At the top level an index out of range restricts the variable (t has rows 0..2).
        return (
            q0 == t[2, 2] - 2
            and len(set(q)) == 4
            and k in u
            and u[k] >= 8 + w[0, 1] - 1
            and r <= 2
            and t[r, 1] + w[r % 2, 0] <= q[r]
            and sum(u.values()) == 24
        )

    return count(ok, *[R(1, 4)] * 4, R(-1, 2), R(0, 3))


@probe
def enum_constructors():
    # Job: idle = 1, J(1..3) = 2..4; Task: 3 anonymous values. J(k) is undefined for k = 4,
    # which at the top level restricts k.
    def ok(a1, a2, a3, k):
        a = [a1, a2, a3]
        return 1 not in a and len(set(a)) == 3 and k <= 3 and a1 == k + 1 and a3 < 4

    return count(ok, R(1, 4), R(1, 4), R(1, 4), R(1, 4))


@probe
def enum_next_prev():
    # Colour: 1..4. enum_next of 4 and enum_prev of 1 have no value: their relation is false.
    def ok(c, d):
        next_is_d = c < 4 and c + 1 == d
        prev_not_red = d > 1 and d - 1 != 1
        return not next_is_d and (prev_not_red or c == 4)

    return count(ok, R(1, 4), R(1, 4))


@probe
def distribute_dup():
    # card[i] counts the base equal to value[i]; card is determined by base.
    def ok(*base):
        card = [base.count(v) for v in (1, 2, 1)]
        return all(0 <= c <= 4 for c in card) and card[1] >= 1

    return count(ok, *[R(1, 3)] * 4)


@probe
def set_search_sets():
    sets = subsets(R(1, 3))
    return count(lambda a, b: len(a) == 1 and len(b) >= 1 and not (a & b), sets, sets)


@probe
def set_increasing():
    # MiniZinc orders sets as their sorted members, lexicographically (Python's list order).
    def le(a, b):
        return sorted(a) <= sorted(b)

    ss, ts = subsets(R(1, 3)), subsets(R(0, 2))
    n_s = sum(1 for a in ss for b in ss for c in ss if le(a, b) and le(b, c) and len(b) <= 2)
    n_t = sum(1 for a in ts for b in ts if le(b, a) and len(a) == len(b))
    n = n_s * n_t
    return ("unsat", "-") if n == 0 else ("count", n)


# ---- MiniZinc's data lines and output item ----


@probe
def mzn_data():
    w = [1, 2, 3]
    return count(lambda *x: sum(a * b for a, b in zip(w, x)) <= 12 and x[0] < x[2], *[[0, 1, 3]] * 3)


@probe
def mzn_named_bounds():
    return count(lambda x, y, z: x + y + z >= 9, R(2, 4), R(1, 3), R(1, 5))


@probe
def mzn_assert3():
    def ok(x1, x2, x3, y1, y2, y3):
        return (x1 == y1 and x2 == y2) or (x2 == y2 and x3 == y3)

    return count(ok, *[R(0, 2)] * 6)


@probe
def mzn_ranged_param():
    return count(lambda a, b, c: a + 2 > b and len({a, b, c}) == 3, *[R(0, 4)] * 3)


@probe
def mzn_lb_ub():
    return count(lambda a, b, c, y: 2 <= y <= 3 and a != b and b != c, *[R(2, 5)] * 3, R(0, 9))


@probe
def mzn_redefine_global():
    return count(lambda *q: all(q[i] != q[j] + 1 for i in range(3) for j in range(i + 1, 3)), *[R(1, 3)] * 3)


def main(argv):
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("--")] or sorted(PROBES)
    unknown = [n for n in names if n not in PROBES]
    if unknown:
        sys.exit("brute.py: no probe named " + ", ".join(unknown))
    expected = read_expected() if check else {}
    bad = 0
    for name in names:
        mode, value = PROBES[name]()
        if check:
            if name not in expected:
                print(f"{name}: not in expected.tsv (brute force: {mode} {value})")
                bad += 1
            elif expected[name] != (mode, str(value)):
                print(f"{name}: expected.tsv says {expected[name][0]} {expected[name][1]}, brute force {mode} {value}")
                bad += 1
        else:
            print(f"{name}\t{mode}\t{value}", flush=True)
    if check:
        missing = sorted(set(expected) - set(PROBES))
        for name in missing:
            print(f"{name}: in expected.tsv but brute.py has no function for it")
        bad += len(missing)
        print(f"brute.py: {len(names)} probes checked, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

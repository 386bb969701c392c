#!/usr/bin/env python3
"""Independent checks of cpsolve's answers on tests/corpus/model/mzn-*.puz.

usage: bench/mzn-corpus/check.py [--bin target/release/cpsolve] [MODEL.puz ...]

For each model: runs `cpsolve --format json --stats MODEL`, compares the status (and the
objective) with tests/minizinc/expected.json, and checks the last solution against
the problem's own rules, written here from the problem statement (not from the .puz):
a checker recomputes every constraint and the objective from the values alone.
Prints one line per model and exits 1 if any answer is wrong.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MZN = os.path.join(ROOT, "tests", "minizinc")  # the benchmark folders and expected.json
MODELS = os.path.join(ROOT, "tests", "corpus", "model")


def arr(sol, name):
    """The cells of array `name` in a solution: {index tuple: int}."""
    out = {}
    for key, value in sol.items():
        m = re.fullmatch(re.escape(name) + r"\[([-0-9, ]+)\]", key)
        if m:
            idx = tuple(int(v) for v in m.group(1).split(","))
            out[idx if len(idx) > 1 else idx[0]] = int(value)
    if not out:
        raise AssertionError(f"no array {name} in the solution")
    return out


def dzn_ints(folder, dzn, name):
    text = open(os.path.join(MZN, folder, dzn)).read()
    m = re.search(r"\b" + name + r"\s*=\s*(?:array\dd\([^\[]*)?\[\|?(.*?)\|?\]", text, re.S)
    return [int(v) for v in re.split(r"[,|\s]+", m.group(1)) if v.strip()]


def dzn_int(folder, dzn, name):
    text = open(os.path.join(MZN, folder, dzn)).read()
    return int(re.search(r"\b" + name + r"\s*=\s*(-?\d+)", text).group(1))


def need(cond, what):
    if not cond:
        raise AssertionError(what)


def boolean(cells, what):
    need(all(v in (0, 1) for v in cells.values()), f"{what} is not 0/1")
    return cells


# ---- one checker per problem: (solution, dzn) -> objective value or None ----

def schur(sol, dzn):
    n, c = dzn_int("schur_numbers", dzn, "n"), dzn_int("schur_numbers", dzn, "c")
    box = arr(sol, "box")
    need(all(1 <= box[i] <= c for i in range(1, n + 1)), "box out of range")
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            if i + j <= n:
                need(not (box[i] == box[j] == box[i + j]), f"{i} + {j} = {i + j} in one box")


def magic(xs, base):
    for i, v in xs.items():
        need(v == sum(1 for w in xs.values() if w == i - base), f"x[{i}] = {v} is not the count of {i - base}")


def magicseq(sol, dzn):
    x = arr(sol, "x")
    need(sorted(x) == list(range(dzn_int("magicseq", dzn, "n"))), "wrong index set")
    magic(x, 0)


def nmseq(sol, dzn):
    s = arr(sol, "s")
    need(sorted(s) == list(range(1, dzn_int("nmseq", dzn, "n") + 1)), "wrong index set")
    magic(s, 1)


def golomb(sol, dzn):
    m = dzn_int("golomb", dzn, "m")
    mark = [arr(sol, "mark")[i] for i in range(1, m + 1)]
    need(mark[0] == 0 and all(a < b for a, b in zip(mark, mark[1:])), "marks not increasing from 0")
    d = [mark[j] - mark[i] for i in range(m) for j in range(i + 1, m)]
    need(len(set(d)) == len(d), "two differences are equal")
    return mark[-1]


def langford(sol, dzn):
    n, k = dzn_int("langford", dzn, "n"), dzn_int("langford", dzn, "k")
    pos, num = arr(sol, "Pos"), arr(sol, "Num")
    need(sorted(pos.values()) == list(range(1, n * k + 1)), "positions not a permutation")
    seq = {p: (ns - 1) // k + 1 for ns, p in pos.items()}
    for v in range(1, n + 1):
        places = sorted(p for p, w in seq.items() if w == v)
        need(len(places) == k and all(b - a == v + 1 for a, b in zip(places, places[1:])), f"copies of {v} at {places}")
    need(all(num[p] == ns for ns, p in pos.items()), "Num is not the inverse of Pos")


def knights(sol, dzn):
    n, m = dzn_int("knights", dzn, "n"), dzn_int("knights", dzn, "m")
    r, c = arr(sol, "r"), arr(sol, "c")
    sq = [(r[i], c[i]) for i in range(1, m + 1)]
    need(all(1 <= a <= n and 1 <= b <= n for a, b in sq), "off the board")
    need(len(set(sq)) == m, "a square visited twice")
    need(sq[0] == (1, 1), "does not start in the corner")
    for (a, b), (x, y) in zip(sq, sq[1:] + sq[:1]):
        need(sorted((abs(a - x), abs(b - y))) == [1, 2], f"{(a, b)} -> {(x, y)} is not a knight's move")


def quasigroup7(sol, dzn):
    n = dzn_int("quasigroup7", dzn, "n")
    q = arr(sol, "quasiGroup")
    rng = range(n)
    for i in rng:
        need(sorted(q[i, j] for j in rng) == list(rng), f"row {i}")
        need(sorted(q[j, i] for j in rng) == list(rng), f"column {i}")
        need(q[i, i] == i, "diagonal")
    for a in rng:
        for b in rng:
            need(q[q[b, a], b] == q[a, q[b, a]], f"axiom 7 fails for a={a} b={b}")


def tents(sol, dzn):
    n = dzn_int("tents", dzn, "n")
    a = dzn_ints("tents", dzn, "a")
    tree = {(r, c): a[(r - 1) * n + c - 1] for r in range(1, n + 1) for c in range(1, n + 1)}
    rs, cs = dzn_ints("tents", dzn, "row_sums"), dzn_ints("tents", dzn, "col_sums")
    t = boolean(arr(sol, "t"), "t")
    tent = {(r, c) for (r, c), v in t.items() if v == 1}
    need(all(1 <= r <= n and 1 <= c <= n and not tree[r, c] for r, c in tent), "tent off the board or on a tree")
    for i in range(1, n + 1):
        need(sum(1 for r, c in tent if r == i) == rs[i - 1], f"row {i}")
        need(sum(1 for r, c in tent if c == i) == cs[i - 1], f"column {i}")
    for (r, c) in tent:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                need((dr, dc) == (0, 0) or (r + dr, c + dc) not in tent, f"tents touch at {(r, c)}")
    for (r, c), v in tree.items():
        if v:
            need(any((r + dr, c + dc) in tent for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))), f"tree {(r, c)} has no tent")


def pentominoes(sol, dzn):
    w, h, nt = (dzn_int("pentominoes", dzn, k) for k in ("width", "height", "ntiles"))
    tiles, dfa = dzn_ints("pentominoes", dzn, "tiles"), dzn_ints("pentominoes", dzn, "dfa")
    board = [arr(sol, "board")[i] for i in range(1, w * h + 1)]
    for hh in range(h):
        need(all(v != nt + 1 for v in board[hh * w:hh * w + w - 1]) and board[hh * w + w - 1] == nt + 1, "row ends")
    for t in range(nt):
        q, s, f0, f1, d0 = tiles[t * 5:t * 5 + 5]
        state = 1
        for v in board:
            state = dfa[d0 + (state - 1) * s + v - 1] if state else 0
        need(f0 <= state <= f1, f"tile {t + 1}'s automaton rejects the board")


def p1f(sol, dzn):
    n = dzn_int("p1f", dzn, "n")
    p = arr(sol, "p")
    rows = [[p[r, c] for c in range(1, n + 1)] for r in range(1, n)]
    need(all(1 <= v <= n for row in rows for v in row), "out of 1..n")
    for row in rows:
        need(all(row[c] != c + 1 and row[row[c] - 1] == c + 1 for c in range(n)), "a row is not a perfect matching")
    for c in range(n):
        col = [row[c] for row in rows]
        need(len(set(col)) == len(col), "two matchings share an edge")
    for a in range(len(rows)):
        for b in range(a + 1, len(rows)):
            seen, node, turn = set(), 1, 0
            while node not in seen:
                seen.add(node)
                node = (rows[a] if turn == 0 else rows[b])[node - 1]
                turn ^= 1
            need(len(seen) == n, "two matchings do not form a Hamiltonian circuit")
    need(all(rows[i] < rows[i + 1] for i in range(len(rows) - 1)), "rows not in order")
    return sum((i + 1) * rows[0][i] for i in range(n))


def still_life(sol, dzn):
    n = dzn_int("still_life2", dzn, "n")
    a = boolean(arr(sol, "a"), "a")
    live = lambda r, c: a.get((r, c), 0) if 1 <= r <= n and 1 <= c <= n else 0
    for r in range(0, n + 2):
        for c in range(0, n + 2):
            s = sum(live(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
            if live(r, c):
                need(s in (2, 3), f"live cell {(r, c)} has {s} neighbours")
            else:
                need(s != 3, f"dead cell {(r, c)} has 3 neighbours")
    return sum(a.values())


def areas(sol, dzn):
    w, h, n = (dzn_int("areas", dzn, k) for k in ("w", "h", "n"))
    puzzle = re.search(r"array2d\([^\[]*\[(.*?)\]", open(os.path.join(MZN, "areas", dzn)).read(), re.S).group(1)
    puzzle = [int(v) for v in puzzle.replace("\n", " ").split(",")]
    size = dzn_ints("areas", dzn, "region_size")
    g = arr(sol, "grid")
    for (r, c), v in g.items():
        need(puzzle[(r - 1) * w + c - 1] in (0, v), "a given cell changed")
    for R in range(1, n + 1):
        cells = {rc for rc, v in g.items() if v == R}
        need(len(cells) == size[R - 1], f"region {R} has {len(cells)} cells")
        start = next(iter(cells))
        seen, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        need(seen == cells, f"region {R} is not contiguous")


def alpha(sol, dzn):
    words = {"ballet": 45, "cello": 43, "concert": 74, "flute": 30, "fugue": 50, "glee": 66, "jazz": 58,
             "lyre": 47, "oboe": 53, "opera": 65, "polka": 59, "quartet": 50, "saxophone": 134, "scale": 51,
             "solo": 37, "song": 61, "soprano": 82, "theme": 72, "violin": 100, "waltz": 34}
    val = {ch: int(sol[ch]) for ch in "abcdefghijklmnopqrstuvwxyz"}
    need(sorted(val.values()) == list(range(1, 27)), "not distinct 1..26")
    for word, total in words.items():
        need(sum(val[ch] for ch in word) == total, word)


def bibd(sol, dzn):
    v, k, lam = (dzn_int("bibd", dzn, x) for x in ("v", "k", "lambda"))
    b, r = lam * v * (v - 1) // (k * (k - 1)), lam * (v - 1) // (k - 1)
    m = boolean(arr(sol, "m"), "m")
    need(len(m) == v * b, "wrong shape")
    for i in range(1, v + 1):
        need(sum(m[i, j] for j in range(1, b + 1)) == r, f"row {i}")
    for j in range(1, b + 1):
        need(sum(m[i, j] for i in range(1, v + 1)) == k, f"column {j}")
    for i in range(1, v + 1):
        for i2 in range(i + 1, v + 1):
            need(sum(m[i, j] * m[i2, j] for j in range(1, b + 1)) == lam, f"rows {i}, {i2}")


def bus_scheduling(sol, dzn):
    text = open(os.path.join(MZN, "bus_scheduling", dzn)).read()
    shifts = [{int(v) for v in s.split(",")} for s in re.findall(r"\{([0-9,]*)\}", text)]
    x = boolean(arr(sol, "x"), "x")
    for j in range(dzn_int("bus_scheduling", dzn, "num_work")):
        need(sum(x[i + 1] for i, s in enumerate(shifts) if j in s) == 1, f"work {j} not covered once")
    return sum(x.values())


def cars(sol, dzn):
    mx, bs = dzn_ints("cars", dzn, "option_max_per_block"), dzn_ints("cars", dzn, "option_block_size")
    per_class, need_ = dzn_ints("cars", dzn, "cars_in_class"), dzn_ints("cars", dzn, "class_option_need")
    no = len(mx)
    sc = arr(sol, "step_class")
    seq = [sc[i] for i in range(1, len(sc) + 1)]
    for cl, cnt in enumerate(per_class, 1):
        need(seq.count(cl) == cnt, f"class {cl}")
    used = [[need_[(cl - 1) * no + p] for p in range(no)] for cl in seq]
    for p in range(no):
        for i in range(len(seq) - bs[p] + 1):
            need(sum(used[i + j][p] for j in range(bs[p])) <= mx[p], f"option {p + 1} at {i + 1}")
    sou = arr(sol, "step_option_used")
    need(all(sou[s, p + 1] == used[s - 1][p] for s in range(1, len(seq) + 1) for p in range(no)), "step_option_used")


def city_position(sol, dzn):
    frm, to, dist = (dzn_ints("city-position", dzn, k) for k in ("from", "to", "distance"))
    N = dzn_int("city-position", dzn, "N")
    x, y = arr(sol, "x"), arr(sol, "y")
    need(y[N - 2] == max(y.values()) and x[N - 1] * 2 > x[N - 2] + x[N] and x[N] == 0 and y[N] == 0, "symmetry breaking")
    total = 0
    for f, t, d in zip(frm, to, dist):
        dx, dy = abs(x[f] - x[t]), abs(y[f] - y[t])
        total += abs(d * 1024 - (1007 * max(dx, dy) + 441 * min(dx, dy)))
    need(int(sol["objective"]) == total, "objective is not the penalty")
    return total


def cutstock(sol, dzn):
    L = dzn_int("cutstock", dzn, "L")
    length, demand = dzn_ints("cutstock", dzn, "i_length"), dzn_ints("cutstock", dzn, "i_demand")
    pieces, items = boolean(arr(sol, "pieces"), "pieces"), arr(sol, "items")
    need(all(v >= 0 for v in items.values()), "negative items")
    for i in range(1, len(length) + 1):
        need(sum(items[k, i] for k in pieces) >= demand[i - 1], f"demand {i}")
    for k in pieces:
        need(sum(items[k, i] * length[i - 1] for i in range(1, len(length) + 1)) <= pieces[k] * L, f"piece {k}")
    return sum(pieces.values())


def eq(sol, dzn):
    text = open(os.path.join(MZN, "eq", "eq20.mzn")).read()
    body = text[text.index("constraint"):text.index(";", text.index("constraint"))]
    x = arr(sol, "x")
    for equation in body[len("constraint"):].split("/\\"):
        lhs, rhs = equation.split("=")
        terms = re.findall(r"(-?\d+)\*x\[(\d)\]", lhs.replace(" ", "").replace("+-", "+-").replace("\n", ""))
        need(len(terms) == 7, "could not read an equation")
        need(sum(int(a) * x[int(i)] for a, i in terms) == int(rhs), f"equation = {rhs.strip()}")


def fast_food(sol, dzn):
    k = dzn_ints("fast-food", dzn, "k")
    p = arr(sol, "p")
    ps = [p[d] for d in sorted(p)]
    need(all(v in k for v in ps) and all(a < b for a, b in zip(ps, ps[1:])), "depots")
    return sum(min(abs(q - kr) for q in ps) for kr in k)


def grid_colouring(sol, dzn):
    n, m = dzn_int("grid-colouring", dzn, "n"), dzn_int("grid-colouring", dzn, "m")
    x = arr(sol, "x")
    need(all(1 <= v <= min(n, m) for v in x.values()), "colour out of 1..min(n, m)")
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            for k in range(1, m + 1):
                for l in range(k + 1, m + 1):
                    need(not (x[i, k] == x[i, l] == x[j, k] == x[j, l]), f"rectangle {i},{j} x {k},{l}")
    need(int(sol["objective"]) >= max(x.values()), "objective below a colour")
    return max(x.values())


def jobshop(sol, dzn):
    n, m = dzn_int("jobshop2", dzn, "n"), dzn_int("jobshop2", dzn, "m")
    job = dzn_ints("jobshop2", dzn, "job")
    t = arr(sol, "t")
    tasks = []
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            mach, dur = job[(i - 1) * 2 * m + 2 * (j - 1)], job[(i - 1) * 2 * m + 2 * (j - 1) + 1]
            tasks.append((mach, t[i, j], dur))
            if j < m:
                need(t[i, j] + dur <= t[i, j + 1], f"job {i} task {j} order")
    for a in range(len(tasks)):
        for b in range(a + 1, len(tasks)):
            ma, sa, da = tasks[a]
            mb, sb, db = tasks[b]
            need(ma != mb or sa + da <= sb or sb + db <= sa, f"machine {ma} overlap")
    return max(s + d for _, s, d in tasks)


def market_split(sol, dzn):
    m, n = dzn_int("market_split", dzn, "m"), dzn_int("market_split", dzn, "n")
    a = dzn_ints("market_split", dzn, "a")
    x = boolean(arr(sol, "x"), "x")
    for i in range(m):
        row = a[i * (n + 1):(i + 1) * (n + 1)]
        need(sum(row[j] * x[j + 1] for j in range(n)) == row[n], f"equation {i + 1}")


def open_stacks(sol, dzn):
    c, p = dzn_int("open_stacks", dzn, "c"), dzn_int("open_stacks", dzn, "p")
    orders = dzn_ints("open_stacks", dzn, "orders")
    s = arr(sol, "s")
    seq = [s[t] for t in range(1, p + 1)]
    need(sorted(seq) == list(range(1, p + 1)), "not a permutation")
    best = 0
    for t in range(p):
        open_ = 0
        for i in range(c):
            mine = [orders[i * p + j - 1] for j in seq]
            if any(mine[:t + 1]) and any(mine[t:]):
                open_ += 1
        best = max(best, open_)
    return best


def slow_convergence(sol, dzn):
    n = dzn_int("slow_convergence", dzn, "n")
    y, x = arr(sol, "y"), arr(sol, "x")
    need(all(0 <= v <= 10 * n for v in list(y.values()) + list(x.values())), "domain")
    need(all(y[i - 1] <= y[i] for i in range(2, n + 1)), "y chain")
    need(all(y[0] - y[i] <= n - i + 1 for i in range(1, n + 1)), "y[0] bound")
    need(y[n] <= x[0], "y[n] <= x[0]")
    need(all(x[i] <= x[j] for i in range(1, n) for j in range(i + 1, n + 1)), "x chain")
    need(y[0] >= n, "y[0] >= n")


def trucking(sol, dzn):
    T, N = dzn_int("trucking", dzn, "T"), dzn_int("trucking", dzn, "N")
    cost, loads, demand = (dzn_ints("trucking", dzn, k) for k in ("Cost", "Loads", "Demand"))
    t1, t2 = dzn_int("trucking", dzn, "Truck1"), dzn_int("trucking", dzn, "Truck2")
    x = boolean(arr(sol, "x"), "x")
    for t in range(1, T + 1):
        need(sum(loads[i - 1] * x[i, t] for i in range(1, N + 1)) >= demand[t - 1], f"demand {t}")
    need(all(sum(x[t1, t] for t in range(tau, tau + 3)) <= 1 for tau in range(1, T - 1)), "Truck1")
    need(all(sum(x[t2, t] for t in range(tau, tau + 2)) <= 1 for tau in range(1, T)), "Truck2")
    return sum(cost[i - 1] * x[i, t] for i in range(1, N + 1) for t in range(1, T + 1))


def jobshop_ft06(sol, dzn):
    n, m = dzn_int("jobshop", dzn, "n_jobs"), dzn_int("jobshop", dzn, "n_machines")
    mach, dur = dzn_ints("jobshop", dzn, "job_task_machine"), dzn_ints("jobshop", dzn, "job_task_duration")
    st = arr(sol, "job_task_start")
    tasks = []
    for j in range(1, n + 1):
        for k in range(1, m + 1):
            tasks.append((mach[(j - 1) * m + k - 1], st[j, k], dur[(j - 1) * m + k - 1]))
            need(st[j, k] >= 0, "negative start")
            if k < m:
                need(st[j, k] + dur[(j - 1) * m + k - 1] <= st[j, k + 1], f"job {j} task {k} order")
    for a in range(len(tasks)):
        for b in range(a + 1, len(tasks)):
            (ma, sa, da), (mb, sb, db) = tasks[a], tasks[b]
            need(ma != mb or sa + da <= sb or sb + db <= sa, f"machine {ma} overlap")
    makespan = max(s + d for _, s, d in tasks)
    need(int(sol["t_end"]) >= makespan, "t_end before the last task ends")
    return makespan


def prize_collecting(sol, dzn):
    n = dzn_int("prize-collecting", dzn, "n")
    p = dzn_ints("prize-collecting", dzn, "p")
    prize_of = lambda i, j: p[(i - 1) * (n + 1) + j]  # p[1..n, 0..n]
    pos, nxt, prize = arr(sol, "pos"), arr(sol, "next"), arr(sol, "prize")
    need(pos[1] == 1, "the path does not start at node 1")
    for i in range(1, n + 1):
        need(0 <= pos[i] <= n and 0 <= nxt[i] <= n, "out of 0..n")
        need((pos[i] > 0) == (nxt[i] > 0), f"node {i}: used by pos but not by next, or back")
        need(sum(1 for k in range(1, n + 1) if nxt[k] == i) <= 1, f"node {i} has two predecessors")
        need(nxt[i] <= 1 or pos[nxt[i]] == pos[i] + 1, f"node {i}: the successor's position")
        need(prize[i] == prize_of(i, nxt[i]), f"node {i}: prize")
    return sum(prize_of(i, nxt[i]) for i in range(1, n + 1))


def road_cons(sol, dzn):
    n, budget = dzn_int("road-cons", dzn, "n"), dzn_int("road-cons", dzn, "budget")
    dist, cost = dzn_ints("road-cons", dzn, "distance"), dzn_ints("road-cons", dzn, "cost")
    M = 1000000
    c = arr(sol, "construct")
    need(all(c[x, x] == 0 and c[x, y] == c[y, x] for x in range(1, n + 1) for y in range(1, n + 1)), "construct")
    need(sum(cost[(x - 1) * n + y - 1] for x in range(1, n + 1) for y in range(x + 1, n + 1) if c[x, y]) <= budget, "budget")
    # The model's own "naive" distances: sp[x, y, 1] is the road x-y (M if not built), and
    # step s + 1 may go through a town z > x only (as road_naive.mzn writes it).
    sp = {(x, y): dist[(x - 1) * n + y - 1] if c[x, y] else M for x in range(1, n + 1) for y in range(x + 1, n + 1)}
    get = lambda a, b: sp[min(a, b), max(a, b)]
    for _ in range(1, n):
        sp = {(x, y): min([sp[x, y]] + [sp[x, z] + get(y, z) for z in range(x + 1, n + 1) if z != y])
              for (x, y) in sp}
    return sum(sp.values())


def unsat_only(sol, dzn):
    raise AssertionError("a solution of an instance Gecode proves unsatisfiable")


CHECKERS = {
    "schur_numbers": schur, "magicseq": magicseq, "nmseq": nmseq, "golomb": golomb, "langford": langford,
    "knights": knights, "quasigroup7": quasigroup7, "tents": tents, "pentominoes": pentominoes, "p1f": p1f,
    "still_life2": still_life, "areas": areas, "alpha": alpha, "bibd": bibd, "bus_scheduling": bus_scheduling,
    "cars": cars, "city-position": city_position, "cutstock": cutstock, "eq": eq, "fast-food": fast_food,
    "grid-colouring": grid_colouring, "jobshop2": jobshop, "market_split": market_split,
    "open_stacks": open_stacks, "slow_convergence": slow_convergence, "trucking": trucking,
    "jobshop": jobshop_ft06, "prize-collecting": prize_collecting, "road-cons": road_cons,
    "prop_stress": unsat_only, "search_stress": unsat_only, "tc-graph-color": unsat_only,
}


def source_of(path):
    """(folder, mzn, dzn) from the model's first line: `# Source: MiniZinc benchmarks, F/M, instance D.`"""
    head = open(path).read(600)
    m = re.search(r"MiniZinc benchmarks, ([\w-]+)/([\w.-]+\.mzn)", head)
    d = re.search(r"instance ([\w.-]+\.dzn)", head)
    return m.group(1), m.group(2), d.group(1) if d else None


# Arrays of the .mzn models whose index sets start at 0 (MiniZinc's JSON output drops them).
ZERO_BASED = {("magicseq", "x"), ("eq", "x"), ("slow_convergence", "x"), ("slow_convergence", "y"),
              ("quasigroup7", "quasiGroup"), ("tents", "t"), ("prop_stress", "x"), ("prop_stress", "y")}


def flatten(folder, name, value, prefix=()):
    """MiniZinc JSON arrays -> {"name[i,j]": v} with the model's index bases."""
    if isinstance(value, list):
        base = 0 if (folder, name) in ZERO_BASED or (folder == "open_stacks" and name == "o" and prefix) else 1
        out = {}
        for i, v in enumerate(value):
            out.update(flatten(folder, name, v, prefix + (i + base,)))
        return out
    if isinstance(value, bool):
        value = int(value)
    if not prefix:
        return {name: value}
    return {f"{name}[{','.join(map(str, prefix))}]": value}


def gecode(folder, mzn, dzn):
    """Runs Gecode on the .mzn and .dzn; returns a result in cpsolve's JSON shape."""
    cmd = ["minizinc", "--solver", os.environ.get("GECODE", "org.gecode.gecodefix"), "--output-mode", "json",
           "--output-objective", os.path.join(MZN, folder, mzn)] + ([os.path.join(MZN, folder, dzn)] if dzn else [])
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    text = run.stdout
    if "=====UNSATISFIABLE=====" in text:
        return {"status": "unsatisfiable"}
    sols = [json.loads(chunk) for chunk in re.findall(r"(\{.*?\})\s*-{10}", text, re.S)]
    if not sols:
        return {"status": "error", "errors": [{"message": run.stderr[-300:]}]}
    flat = {}
    for name, value in sols[-1].items():
        if name == "_objective":
            continue
        flat.update(flatten(folder, name, value))
    return {"status": "solved", "solutions": [flat], "objective": sols[-1].get("_objective")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "cpsolve"))
    ap.add_argument("--gecode", action="store_true", help="check Gecode's answers instead (tests the checkers)")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    expected = json.load(open(os.path.join(MZN, "expected.json")))
    bench = os.path.join(ROOT, "bench", "mzn-corpus", "models")
    models = args.models or sorted(
        os.path.join(d, f) for d in (MODELS, bench) for f in os.listdir(d) if f.startswith("mzn-") and f.endswith(".puz"))
    bad = 0
    for path in models:
        folder, mzn, dzn = source_of(path)
        exp = next(e for e in expected if e["folder"] == folder and e["mzn"] == mzn and e["dzn"] == dzn)
        start = time.perf_counter()
        name = os.path.basename(path)
        if args.gecode:
            out = gecode(folder, mzn, dzn)
        else:
            run = subprocess.run([args.bin, "--format", "json", "--stats", "--timeout", "60", path], capture_output=True, text=True)
            try:
                out = json.loads(run.stdout.splitlines()[0])
            except (IndexError, json.JSONDecodeError):
                print(f"ERROR {name}: exit {run.returncode}: {run.stderr.strip().splitlines()[:1]}")
                bad += 1
                continue
        wall = time.perf_counter() - start
        verdict, note = "ok", ""
        try:
            status = out["status"]
            if status == "error":
                raise AssertionError("error: " + out["errors"][0]["message"])
            if exp["status"] == "unsat":
                need(status == "unsatisfiable", f"status {status}, expected unsatisfiable")
            else:
                need(status == "solved", f"status {status}, expected solved")
                objective = CHECKERS[folder](out["solutions"][-1], dzn)
                if exp["method"] != "satisfy":
                    need(objective == exp["objective"], f"checked objective {objective}, expected {exp['objective']}")
                    need(out.get("objective") == exp["objective"], f"reported objective {out.get('objective')}")
            stats = out.get("stats", {})
            note = f"{stats.get('time_ms', '?')} ms search, {stats.get('nodes', '?')} nodes"
        except AssertionError as e:
            verdict, note = "WRONG" if "error:" not in str(e) else "ERROR", str(e)
            bad += 1
        print(f"{verdict:5} {name:45} {wall:6.3f} s  {note}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

"""Models built in Python: variables, expressions, globals, goals, results."""

import itertools
import json

import numpy as np
import pytest

import cpsolve


def brute_count(domains, holds):
    return sum(1 for values in itertools.product(*domains) if holds(*values))


def test_int_var_scalar_and_shapes():
    m = cpsolve.Model()
    x = m.int_var(0, 9, name="x")
    assert isinstance(x, cpsolve.IntVar)
    a = m.int_var(1, 3, shape=4)
    g = m.int_var(1, 9, shape=(2, 3), name="g")
    b = m.bool_var(shape=(2, 2))
    assert a.shape == (4,) and a.dtype == object
    assert g.shape == (2, 3) and isinstance(g[1, 2], cpsolve.IntVar)
    assert b.shape == (2, 2)
    assert "var g[1..2, 1..3] in 1..9" in m.to_puz()
    assert m.int_var(0, 1, shape=0).shape == (0,)


def test_queens_count_and_iterate():
    n = 8
    m = cpsolve.Model()
    q = m.int_var(0, n - 1, shape=n, name="q")
    m += cpsolve.all_different(q)
    m += cpsolve.all_different([q[i] + i for i in range(n)])
    m += cpsolve.all_different([q[i] - i for i in range(n)])
    assert m.count() == 92
    seen = set()
    for s in m.solutions():
        row = tuple(s[q].tolist())
        assert len(set(row)) == n
        assert len({row[i] + i for i in range(n)}) == n
        assert len({row[i] - i for i in range(n)}) == n
        seen.add(row)
    assert len(seen) == 92
    assert len(list(m.solutions(limit=5))) == 5


def test_operators_against_brute_force():
    m = cpsolve.Model()
    x, y = m.int_var(-3, 4, name="x"), m.int_var(0, 5, name="y")
    b = m.bool_var(name="b")
    m += ((x * y == 4) | b) & (abs(x - y) != 1)
    m += b.implies(x < 0)
    m += ~(x == 2) | (y >= 3)
    got = sorted((s[x], s[y], s[b]) for s in m.solutions())
    want = sorted(
        (vx, vy, vb)
        for vx, vy, vb in itertools.product(range(-3, 5), range(0, 6), range(2))
        if (vx * vy == 4 or vb) and abs(vx - vy) != 1 and (not vb or vx < 0) and (vx != 2 or vy >= 3)
    )
    assert got == want


def test_conditions_compared_as_numbers_against_brute_force():
    # A condition compared with an integer, or ordered against another, counts 1 when it
    # holds; two conditions joined by == or != are equivalent or not.
    m = cpsolve.Model()
    x, y = m.int_var(-3, 4, name="x"), m.int_var(-1, 2, name="y")
    b = m.bool_var(name="b")
    m += ((x > 0) & (y > 0)) != y
    m += (x < 2) <= (y == 2) + b
    m += b == (x == y)
    got = sorted((s[x], s[y], s[b]) for s in m.solutions())
    want = sorted(
        (vx, vy, vb)
        for vx, vy, vb in itertools.product(range(-3, 5), range(-1, 3), range(2))
        if int(vx > 0 and vy > 0) != vy and int(vx < 2) <= int(vy == 2) + vb and vb == int(vx == vy)
    )
    assert got == want and want


def test_numpy_comparisons_give_conditions():
    m = cpsolve.Model()
    a = m.int_var(0, 3, shape=3, name="a")
    m += a >= 1
    m += 2 != a
    assert m.count() == brute_count([range(4)] * 3, lambda *v: all(x >= 1 and x != 2 for x in v))


@pytest.mark.parametrize(
    "make, check",
    [
        (lambda a: cpsolve.all_different(a), lambda v: len(set(v)) == len(v)),
        (lambda a: cpsolve.all_equal(a), lambda v: len(set(v)) == 1),
        (lambda a: cpsolve.increasing(a), lambda v: list(v) == sorted(v)),
        (lambda a: cpsolve.decreasing(a), lambda v: list(v) == sorted(v, reverse=True)),
        (lambda a: cpsolve.sum(a) == 4, lambda v: sum(v) == 4),
        (lambda a: cpsolve.min(a) == 1, lambda v: min(v) == 1),
        (lambda a: cpsolve.max(a[0], a[1]) == 2, lambda v: max(v[0], v[1]) == 2),
        (lambda a: cpsolve.count(a, 2) == 2, lambda v: list(v).count(2) == 2),
        (lambda a: cpsolve.abs(a[0] - a[1]) == 2, lambda v: abs(v[0] - v[1]) == 2),
        (lambda a: cpsolve.element(a, a[0]) == 3, lambda v: v[0] < 3 and v[v[0]] == 3),
        (lambda a: a[a[1]] == 0, lambda v: v[1] < 3 and v[v[1]] == 0),
        (lambda a: cpsolve.table(a, [[0, 1, 2], [3, 3, 3]]), lambda v: list(v) in ([0, 1, 2], [3, 3, 3])),
        (lambda a: cpsolve.circuit(a), lambda v: sorted(v) == [0, 1, 2] and v[v[v[0]]] == 0 and v[0] != 0),
        (lambda a: cpsolve.exists([x == 3 for x in a]), lambda v: 3 in v),
        (lambda a: cpsolve.forall([x != 3 for x in a]), lambda v: 3 not in v),
        (lambda a: cpsolve.xorall([x == 0 for x in a]), lambda v: list(v).count(0) % 2 == 1),
        (lambda a: cpsolve.nvalue(2, a), lambda v: len(set(v)) == 2),
        (lambda a: cpsolve.among(2, a, [1, 2]), lambda v: sum(x in (1, 2) for x in v) == 2),
        (lambda a: cpsolve.lex_less(a[:2], a[1:]), lambda v: (v[0], v[1]) < (v[1], v[2])),
        (lambda a: cpsolve.lex_lesseq(a[:2], a[1:]), lambda v: (v[0], v[1]) <= (v[1], v[2])),
        (lambda a: cpsolve.div(a[0], 2) == a[1], lambda v: v[0] // 2 == v[1]),
        (lambda a: cpsolve.mod(a[0], 3) == a[1], lambda v: v[0] % 3 == v[1]),
        (lambda a: cpsolve.value_precede(1, 2, a), lambda v: 2 not in v or (1 in v and v.index(1) < v.index(2))),
        (
            lambda a: cpsolve.global_cardinality(a, [0, 3], [1, 1]),
            lambda v: list(v).count(0) == 1 and list(v).count(3) == 1,
        ),
        (lambda a: cpsolve.disjunctive(a, [2, 1, 1]), lambda v: all(
            v[i] + [2, 1, 1][i] <= v[j] or v[j] + [2, 1, 1][j] <= v[i] for i in range(3) for j in range(i + 1, 3))),
        (lambda a: cpsolve.cumulative(a, [2, 2, 1], [1, 1, 1], 2), lambda v: all(
            sum(1 for i in range(3) if v[i] <= t < v[i] + [2, 2, 1][i]) <= 2 for t in range(8))),
    ],
)
def test_globals_count_as_brute_force(make, check):
    m = cpsolve.Model()
    a = m.int_var(0, 3, shape=3, name="a")
    m += make(a)
    assert m.count() == brute_count([range(4)] * 3, lambda *v: check(list(v)))


def test_inverse_and_subcircuit():
    m = cpsolve.Model()
    f, g = m.int_var(0, 2, shape=3), m.int_var(0, 2, shape=3)
    m += cpsolve.inverse(f, g)
    assert m.count() == 6
    for s in m.solutions():
        assert all(s[g][s[f][i]] == i for i in range(3))
    m = cpsolve.Model()
    s = m.int_var(0, 3, shape=4)
    m += cpsolve.subcircuit(s)
    assert m.count() == brute_count([range(4)] * 4, lambda *v: _subcircuit(list(v)))


def _subcircuit(v):
    moved = [i for i in range(len(v)) if v[i] != i]
    if len(set(v)) != len(v):
        return False
    if not moved:
        return True
    seen, i = set(), moved[0]
    while i not in seen:
        seen.add(i)
        i = v[i]
    return seen == set(moved)


def test_sudoku_from_numpy():
    givens = np.array([
        [5, 3, 0, 0, 7, 0, 0, 0, 0], [6, 0, 0, 1, 9, 5, 0, 0, 0], [0, 9, 8, 0, 0, 0, 0, 6, 0],
        [8, 0, 0, 0, 6, 0, 0, 0, 3], [4, 0, 0, 8, 0, 3, 0, 0, 1], [7, 0, 0, 0, 2, 0, 0, 0, 6],
        [0, 6, 0, 0, 0, 0, 2, 8, 0], [0, 0, 0, 4, 1, 9, 0, 0, 5], [0, 0, 0, 0, 8, 0, 0, 7, 9],
    ])
    m = cpsolve.Model()
    x = m.int_var(1, 9, shape=(9, 9), name="x")
    m += [cpsolve.all_different(row) for row in x]
    m += [cpsolve.all_different(col) for col in x.T]
    m += [cpsolve.all_different(x[i:i + 3, j:j + 3]) for i in range(0, 9, 3) for j in range(0, 9, 3)]
    m += x[givens > 0] == givens[givens > 0]
    r = m.solve()
    assert r.status == "solution"
    grid = r[x]
    assert grid.shape == (9, 9) and grid.dtype == np.int64
    assert (grid[givens > 0] == givens[givens > 0]).all()
    for k in range(9):
        assert sorted(grid[k]) == list(range(1, 10)) and sorted(grid[:, k]) == list(range(1, 10))
    assert m.count() == 1
    explained = m.explain()
    assert explained["steps"] and explained["ending"] and "grade" in explained


def test_knapsack_maximised_against_brute_force():
    w, v, cap = [12, 7, 11, 8, 9], [24, 13, 23, 15, 16], 26
    m = cpsolve.Model()
    take = m.bool_var(shape=5, name="take")
    m += cpsolve.sum(w * take) <= cap
    m.maximize(cpsolve.sum(v * take))
    r = m.solve()
    best = max(
        sum(vi for vi, t in zip(v, ts) if t)
        for ts in itertools.product([0, 1], repeat=5)
        if sum(wi for wi, t in zip(w, ts) if t) <= cap
    )
    assert r.status == "optimal" and r.objective == best
    assert sum(np.array(v) * r[take]) == best and sum(np.array(w) * r[take]) <= cap
    obj = json.loads(r.to_json())
    assert obj["status"] == "solved" and obj["objective"] == best and obj["kind"] == "model"
    m2 = cpsolve.Model()
    x = m2.int_var(0, 10, name="x")
    m2.minimize(abs(x - 7))
    assert m2.solve().objective == 0 and m2.solve()[x] == 7


def test_unsatisfiable():
    m = cpsolve.Model()
    x = m.int_var(0, 3, shape=5)
    m += cpsolve.all_different(x)
    r = m.solve()
    assert r.status == "unsat" and not r
    assert json.loads(r.to_json())["status"] == "unsatisfiable"
    with pytest.raises(ValueError, match="no solution"):
        r[x[0]]
    assert m.count() == 0
    assert list(m.solutions()) == []


def test_to_json_is_the_clis(tmp_path, repo):
    import subprocess
    m = cpsolve.Model()
    x = m.int_var(0, 4, shape=3, name="x")
    m += cpsolve.sum(x) == 5
    m += x[0] > x[2]
    r = m.solve()
    mine = json.loads(r.to_json())
    path = tmp_path / "m.puz"
    path.write_text(m.to_puz())
    cli = repo / "target" / "release" / "cpsolve"
    if cli.exists():
        out = subprocess.run([cli, "--format", "json", path], capture_output=True, text=True).stdout
        theirs = json.loads(out)
        assert theirs["solutions"] == mine["solutions"] and theirs["status"] == mine["status"]
    # The model's .puz text solves to the same answer from a file.
    again = cpsolve.solve_file(path)
    assert json.loads(again.to_json())["solutions"] == mine["solutions"]
    assert again["x"].tolist() == r[x].tolist()


def test_solutions_iterator_is_lazy_and_stops_when_dropped():
    m = cpsolve.Model()
    x = m.int_var(0, 9, shape=12)
    it = m.solutions()
    first = next(it)
    assert first[x].shape == (12,)
    it.close()  # 10^12 solutions: closing must end the search at once
    with pytest.raises(StopIteration):
        next(it)


def test_threads_give_the_same_count():
    m = cpsolve.Model()
    q = m.int_var(0, 9, shape=10)
    m += cpsolve.all_different(q)
    m += cpsolve.all_different([q[i] + i for i in range(10)])
    m += cpsolve.all_different([q[i] - i for i in range(10)])
    assert m.count(threads=2) == m.count() == 724

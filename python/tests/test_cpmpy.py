"""The CPMpy backend: CPMpy's classic examples, and constraints of CPMpy's own constraint
tests (`tests/test_constraints.py`'s kinds) counted against CPMpy's OR-Tools backend."""

import pytest

cp = pytest.importorskip("cpmpy", reason="the CPMpy backend needs cpmpy (pip install cpmpy)")

from cpsolve.cpmpy import CPM_cpsolve  # noqa: E402


def test_send_more_money():
    s, e, n, d, m, o, r, y = letters = cp.intvar(0, 9, shape=8)
    model = cp.Model(
        cp.AllDifferent(letters),
        1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o + 10 * r + e
        == 10000 * m + 1000 * o + 100 * n + 10 * e + y,
        s > 0,
        m > 0,
    )
    solver = CPM_cpsolve(model)
    assert solver.solve(time_limit=10)
    assert [v.value() for v in letters] == [9, 5, 6, 7, 1, 0, 8, 2]
    assert solver.solveAll() == 1


def test_queens_92():
    q = cp.intvar(0, 7, shape=8)
    model = cp.Model(
        cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(8)]), cp.AllDifferent([q[i] - i for i in range(8)])
    )
    seen = []
    assert CPM_cpsolve(model).solveAll(display=lambda: seen.append(tuple(q.value()))) == 92
    assert len(set(seen)) == 92


def test_objective_and_status():
    x = cp.intvar(0, 10, shape=3)
    model = cp.Model(cp.sum(x) <= 12, x[0] != x[1])
    model.maximize(2 * x[0] + 3 * x[1] - x[2])
    solver = CPM_cpsolve(model)
    assert solver.solve()
    assert solver.objective_value() == 34
    assert solver.status().exitstatus == cp.solvers.solver_interface.ExitStatus.OPTIMAL
    unsat = CPM_cpsolve(cp.Model(x[0] > 5, x[0] < 3))
    assert not unsat.solve()
    assert unsat.status().exitstatus == cp.solvers.solver_interface.ExitStatus.UNSATISFIABLE


IV = cp.intvar(-3, 3, shape=3, name="iv")
BV = cp.boolvar(shape=3, name="bv")
CONSTRAINTS = [
    cp.AllDifferent(IV),
    cp.AllEqual(IV),
    cp.Circuit(cp.intvar(0, 2, shape=3, name="succ")),
    cp.Table(IV, [[0, 1, 2], [1, 1, 1], [-3, 0, 3]]),
    cp.Element(IV, cp.intvar(-1, 3, name="idx")) == IV[2],
    cp.min(IV) == -1,
    cp.max(IV) >= 2,
    cp.abs(IV[0] - IV[1]) == 2,
    cp.Xor(BV),
    cp.Count(IV, 0) == 1,
    cp.Increasing(IV),
    cp.Decreasing(IV),
    cp.sum(IV) == BV[0] + 2 * BV[1],
    IV[0] * IV[1] == IV[2],
    (IV[0] > 0) | BV[0],
    BV[0].implies(IV[1] == IV[2]),
    ~BV[0] & (IV[0] != 1),
    (IV[0] == 1) == BV[1],
    cp.AllDifferentExcept0(IV),
    cp.GlobalCardinalityCount(IV, [0, 1], cp.intvar(0, 3, shape=2, name="gcc")),
    cp.Cumulative([IV[0] + 3, IV[1] + 3], [2, 1], [IV[0] + 5, IV[1] + 4], [1, 1], 1),
    cp.NValue(IV) == 2,
    cp.IfThenElse(BV[0], IV[0] == 1, IV[0] == 2),
    cp.Inverse(cp.intvar(0, 2, shape=3, name="f"), cp.intvar(0, 2, shape=3, name="g")),
]


@pytest.mark.parametrize("constraint", CONSTRAINTS, ids=[str(c)[:40] for c in CONSTRAINTS])
def test_constraint_counts_as_ortools(constraint):
    model = cp.Model(constraint)
    ours = CPM_cpsolve(model).solveAll(solution_limit=10000)
    theirs = cp.SolverLookup.get("ortools", model).solveAll(solution_limit=10000)
    assert ours == theirs

"""Split searches on a Dask LocalCluster with two worker processes."""

import json

import pytest

distributed = pytest.importorskip("distributed", reason="cpsolve.dask needs dask[distributed]")

import cpsolve  # noqa: E402
import cpsolve.dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def queens(n):
    m = cpsolve.Model()
    q = m.int_var(0, n - 1, shape=n, name="q")
    m += cpsolve.all_different(q)
    m += cpsolve.all_different([q[i] + i for i in range(n)])
    m += cpsolve.all_different([q[i] - i for i in range(n)])
    return m, q


def test_count_adds_up_the_parts(client):
    m, _ = queens(9)
    assert cpsolve.dask.count(m, client, parts=16) == m.count() == 352
    assert cpsolve.dask.count(m, client, parts=1) == 352


def test_first_solution(client):
    m, q = queens(10)
    r = cpsolve.dask.solve(m, client, parts=8)
    v = r[q].tolist()
    assert r.status == "solution" and len(set(v)) == 10
    assert len({v[i] + i for i in range(10)}) == 10 and len({v[i] - i for i in range(10)}) == 10


def test_unsatisfiable(client):
    m = cpsolve.Model()
    x = m.int_var(0, 4, shape=6)
    m += cpsolve.all_different(x)
    assert cpsolve.dask.solve(m, client, parts=4).status == "unsat"


def test_optimum_over_the_parts(client):
    m = cpsolve.Model()
    x = m.int_var(0, 9, shape=4, name="x")
    m += cpsolve.all_different(x)
    m += x[0] + x[1] <= x[2]
    m.maximize(x[0] * x[1] - x[3])
    r = cpsolve.dask.solve(m, client, parts=6)
    assert r.status == "optimal" and r.objective == m.solve().objective
    assert json.loads(r.to_json())["part"]["of"] == 6


def test_limits_raise_stopped(client):
    m = cpsolve.Model()
    x = m.int_var(0, 9, shape=16)
    m += cpsolve.all_different(x[:10])
    with pytest.raises(cpsolve.Stopped):
        cpsolve.dask.count(m, client, parts=2, timeout=0.2)


def test_bad_arguments(client):
    with pytest.raises(TypeError):
        cpsolve.dask.count(3, client, parts=2)
    with pytest.raises(ValueError):
        cpsolve.dask.count(queens(4)[0], client, parts=0)


def pigeons_unless_free(n):
    """Minimise ``10·b + z[0]``: with ``b = 0`` the ``z`` are free (the optimum 0 comes at
    once); with ``b = 1`` they are ``n`` pigeons in ``n - 1`` holes, pairwise different, which
    a search refutes only in about ``(n - 1)!`` nodes. Branching takes ``b`` first, so the
    first parts hold ``b = 0`` and the later ones spend ages in ``b = 1`` unless a bound of 0
    reaches them (``10·b + z[0] ≤ -1`` fails at once there)."""
    m = cpsolve.Model()
    b = m.int_var(0, 1, name="b")
    z = m.int_var(0, n - 2, shape=n, name="z")
    for i in range(n):
        for j in range(i + 1, n):
            m += (b == 0) | (z[i] != z[j])
    m.minimize(10 * b + z[0])
    return m


def test_parts_share_their_bound_while_they_run(client):
    # Without the bound shared, the parts in b = 1 search 13 pigeons in 12 holes (12! leaves)
    # and reach the time limit: the status would be "limit".
    m = pigeons_unless_free(13)
    r = cpsolve.dask.solve(m, client, parts=4, timeout=30)
    assert (r.status, r.objective) == ("optimal", 0)
    assert r.stats["parts_bounded"] > 0
    assert r.stats["nodes"] < 100_000


def test_a_part_cut_by_an_outside_bound_is_no_better_not_unsat():
    from cpsolve import _native

    text = pigeons_unless_free(7).to_puz()
    alone = [_native.run(f"{text}option part = {i}, 4\n", "<m>") for i in range(1, 5)]
    assert alone[0]["status"] == "solved" and alone[0]["objective"] == 0
    bound = _native.SharedBound()
    bound.offer(0)
    last = _native.run(f"{text}option part = 4, 4\n", "<m>", bound=bound)
    assert alone[3]["status"] == "unsatisfiable" and alone[3]["stats"]["nodes"] > 100
    assert (last["status"], last["bound"], last["records"]) == ("no better", 0, [])
    assert last["stats"]["nodes"] < alone[3]["stats"]["nodes"]
    assert json.loads(last["json"])["bound"] == 0
    # The part that holds the optimum still finds it, as good as the bound.
    first = _native.run(f"{text}option part = 1, 4\n", "<m>", bound=bound)
    assert (first["status"], first["bound"], bound.rank()) == ("no better", 0, 0)

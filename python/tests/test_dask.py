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

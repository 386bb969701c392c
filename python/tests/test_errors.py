"""Bad input: wrong types, bad values, huge shapes, located errors, limits."""

import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import cpsolve


def test_wrong_types_raise_type_error():
    m = cpsolve.Model()
    x = m.int_var(0, 9)
    with pytest.raises(TypeError, match="lo must be an integer"):
        m.int_var("0", 9)
    with pytest.raises(TypeError, match="integer"):
        m.int_var(0.5, 9)
    with pytest.raises(TypeError, match="shape"):
        m.int_var(0, 9, shape="3")
    with pytest.raises(TypeError, match="name must be a str"):
        m.int_var(0, 9, name=3)
    with pytest.raises(TypeError):
        x + 1.5
    with pytest.raises(TypeError):
        x + "y"
    with pytest.raises(TypeError, match="not a condition"):
        m += x
    with pytest.raises(TypeError, match="constraint must be"):
        m += 3
    with pytest.raises(TypeError, match="constraint must be"):
        m += "x > 3"
    with pytest.raises(TypeError, match="joins conditions"):
        (x + 1) & (x == 2)
    with pytest.raises(TypeError, match="no truth value"):
        if x == 3:
            pass
    with pytest.raises(TypeError, match="timeout"):
        m.solve(timeout="1")
    with pytest.raises(TypeError, match="path"):
        cpsolve.solve_file(3)
    with pytest.raises(TypeError):
        cpsolve.all_different(5)
    with pytest.raises(TypeError):
        cpsolve.table([x], [["a"]])


def test_bad_values_raise_value_error():
    m = cpsolve.Model()
    with pytest.raises(ValueError, match="above hi"):
        m.int_var(5, 1)
    with pytest.raises(ValueError, match="negative"):
        m.int_var(0, 1, shape=(-1, 2))
    with pytest.raises(ValueError, match="keyword|cannot name"):
        m.int_var(0, 1, name="var")
    with pytest.raises(ValueError, match="cannot name"):
        m.int_var(0, 1, name="2x")
    m.int_var(0, 1, name="x")
    with pytest.raises(ValueError, match="already"):
        m.int_var(0, 1, name="x")
    with pytest.raises(ValueError, match="timeout"):
        m.solve(timeout=-1)
    with pytest.raises(ValueError, match="threads"):
        m.solve(threads=0)
    with pytest.raises(ValueError, match="2\\^62"):
        m.int_var(0, 2**70)


def test_huge_shapes_are_refused_before_allocating():
    m = cpsolve.Model()
    start = time.perf_counter()
    with pytest.raises(ValueError, match="at most"):
        m.int_var(0, 1, shape=(10**6, 10**6))
    with pytest.raises(ValueError, match="at most"):
        m.bool_var(shape=10**12)
    assert time.perf_counter() - start < 1.0


def test_model_error_in_a_python_model_names_the_python_line():
    m = cpsolve.Model()
    x = m.int_var(0, 9, name="x")
    m += cpsolve.div(x, 0) == 1; line = sys._getframe().f_lineno  # noqa: E702
    with pytest.raises(cpsolve.ModelError) as caught:
        m.solve()
    e = caught.value
    assert e.file == __file__ and e.line == line and e.column > 0
    assert str(e).startswith(f"{__file__}:{line}:{e.column}: division by zero")
    assert "^" in str(e)


def test_model_error_in_a_file(tmp_path):
    path = tmp_path / "bad.puz"
    path.write_text("var x in 0..9\nx + == 3\n")
    with pytest.raises(cpsolve.ModelError) as caught:
        cpsolve.solve_file(path)
    e = caught.value
    assert (e.file, e.line, e.column) == (str(path), 2, 5)
    assert str(e).startswith(f"{path}:2:5: ")
    assert e.errors[0]["line"] == 2


def test_model_error_in_an_included_file(tmp_path):
    (tmp_path / "lib.puz").write_text("var y in 0..9\ny = = 2\n")
    (tmp_path / "main.puz").write_text('include "lib.puz"\n')
    with pytest.raises(cpsolve.ModelError) as caught:
        cpsolve.solve_file(tmp_path / "main.puz")
    assert caught.value.line == 2 and caught.value.file.endswith("lib.puz")


def test_unreadable_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError, match="cannot read"):
        cpsolve.solve_file(tmp_path / "missing.puz")


def test_count_stopped_by_a_node_limit():
    m = cpsolve.Model()
    x = m.int_var(0, 9, shape=10)
    m += cpsolve.all_different(x)
    with pytest.raises(cpsolve.Stopped) as caught:
        m.count(nodes=1000)
    assert caught.value.stopped == "nodes"
    assert caught.value.count < 3628800


def test_count_stopped_in_time():
    m = cpsolve.Model()
    x = m.int_var(0, 9, shape=16)
    m += cpsolve.all_different(x[:10])
    start = time.perf_counter()
    with pytest.raises(cpsolve.Stopped) as caught:
        m.count(timeout=0.3)
    elapsed = time.perf_counter() - start
    assert caught.value.stopped == "time"
    assert elapsed < 5  # generous: a loaded machine; the bench measures the promise


def test_solutions_stopped_by_a_limit_raise_after_what_was_found():
    m = cpsolve.Model()
    x = m.int_var(0, 9, shape=10)
    found = []
    with pytest.raises(cpsolve.Stopped):
        for s in m.solutions(nodes=50):
            found.append(s[x])
    assert found


def test_solve_limit_status():
    m = cpsolve.Model()
    x = m.int_var(0, 50, shape=12)
    m += cpsolve.all_different(x)
    m += cpsolve.sum(x) == 3 * 12
    m.maximize(x[0] * x[1] - x[2])
    r = m.solve(nodes=20)
    assert r.status == "limit" and r.stopped == "nodes"


def test_two_threads_keep_their_own_limits():
    hard = cpsolve.Model()
    x = hard.int_var(0, 9, shape=16)
    hard += cpsolve.all_different(x[:10])
    easy = cpsolve.Model()
    q = easy.int_var(0, 7, shape=8)
    easy += cpsolve.all_different(q)
    easy += cpsolve.all_different([q[i] + i for i in range(8)])
    easy += cpsolve.all_different([q[i] - i for i in range(8)])
    results = {}

    def run_hard():
        try:
            hard.count(timeout=1.0)
        except cpsolve.Stopped as e:
            results["hard"] = e.stopped

    def run_easy():
        results["easy"] = [easy.count() for _ in range(20)]

    threads = [threading.Thread(target=run_hard), threading.Thread(target=run_easy)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results["hard"] == "time"
    assert results["easy"] == [92] * 20


def test_ctrl_c_stops_a_search(tmp_path):
    script = tmp_path / "long.py"
    script.write_text(textwrap.dedent("""
        import sys, time, cpsolve
        m = cpsolve.Model()
        x = m.int_var(0, 9, shape=20)
        print("ready", flush=True)
        try:
            m.count()
        except KeyboardInterrupt:
            print("interrupted", time.perf_counter(), flush=True)
            sys.exit(0)
    """))
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    line = child.stdout.readline().split()
    child.wait(timeout=30)
    assert line[0] == "interrupted"
    # perf_counter is system-wide on Linux (CLOCK_MONOTONIC): the two processes share it.
    assert float(line[1]) - sent < 2.0

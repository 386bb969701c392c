"""Model files: .puz (with includes), .fzn, .mzn with .dzn; explanations as data."""

import json
import shutil

import pytest

import cpsolve


def test_puz_file(repo):
    r = cpsolve.solve_file(repo / "tests/corpus/cryptarithm/send-more-money.puz")
    assert r.status == "solution"
    obj = json.loads(r.to_json())
    assert obj["kind"] == "cryptarithm" and obj["solutions"][0]["M"] == 1
    assert r["S"] == 9 and r["Y"] == 2


def test_puz_text_with_a_goal(tmp_path):
    path = tmp_path / "goal.puz"
    path.write_text("var x, y in 0..10\nx + 2*y <= 14\n3*x - y >= 0\nx - y <= 2\nmaximize 3*x + 2*y\n")
    r = cpsolve.solve_file(path)
    assert r.status == "optimal" and r.objective == 26 and (r["x"], r["y"]) == (6, 4)


def test_fzn_file(repo):
    r = cpsolve.solve_file(repo / "tests/corpus/flatzinc/queens-4.fzn")
    assert r.status == "solution"
    assert sorted(r["q"]) == [1, 2, 3, 4]


def test_fzn_file_stops_at_the_node_limit(tmp_path):
    # Nine pigeons in eight holes: no solution, and no proof within 20 nodes.
    lines = [f"var 1..8: x{i} :: output_var;" for i in range(9)]
    lines += [f"constraint int_ne(x{i}, x{j});" for i in range(9) for j in range(i + 1, 9)]
    path = tmp_path / "pigeons.fzn"
    path.write_text("\n".join(lines + ["solve satisfy;"]) + "\n")
    r = cpsolve.solve_file(path, nodes=20)
    assert r.status == "limit" and r.stopped == "nodes"
    assert cpsolve.solve_file(path).status == "unsat"


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="needs minizinc to flatten")
def test_mzn_with_dzn(tmp_path):
    (tmp_path / "m.mzn").write_text("int: n; var 1..n: x; var 1..n: y; constraint x + y = n + 1; "
                                    "constraint x > y; solve maximize x;\n")
    (tmp_path / "d.dzn").write_text("n = 5;\n")
    r = cpsolve.solve_file(tmp_path / "m.mzn", data=tmp_path / "d.dzn")
    assert r.status == "optimal" and r.objective == 5 and r["x"] == 5 and r["y"] == 1


def test_data_files_only_with_mzn(repo):
    with pytest.raises(ValueError, match="data files"):
        cpsolve.solve_file(repo / "tests/corpus/flatzinc/queens-4.fzn", data="x.dzn")


def test_explain_file(repo):
    told = cpsolve.explain_file(repo / "tests/corpus/cryptarithm/send-more-money.puz")
    assert len(told["steps"]) == 13
    assert told["grade"] == 1.2
    assert told["ending"]


def test_explain_file_errors_are_located(tmp_path):
    path = tmp_path / "bad.puz"
    path.write_text("var x in 0..9\nx ==\n")
    with pytest.raises(cpsolve.ModelError) as caught:
        cpsolve.explain_file(path)
    assert caught.value.line == 2

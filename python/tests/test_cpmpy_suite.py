"""CPMpy's own constraint tests, run against :class:`cpsolve.cpmpy.CPM_cpsolve`.

The repository does not carry CPMpy's tests. The source distribution of the installed CPMpy
version on PyPI ships them (``tests/test_constraints.py``): the first run fetches it with
pip and keeps that one file in the environment's folder (``sys.prefix``), and this module
collects its three tests (``test_bool_constraints``, ``test_comparison_constraints``,
``test_reify_imply_constraints``: every operator, comparison, global constraint and
function, and their reifications, each solved alone and its value checked) with the solver
``"cpsolve"``. Without the registry the fetch fails, and so do these tests: they do not skip.

The source distribution lacks the two helpers those tests take from CPMpy's repository
(``conftest.py`` and ``utils.py``); the little of them the tests need is here: the
``generate_constraints`` marker's parametrisation, and ``skip_on_missing_pblib`` (PBLib
is a SAT encoder cpsolve does not use: nothing to skip). The solver is found by name through
``SolverLookup``, which lists CPMpy's own solvers: ``"cpsolve"`` is added to that list for
this test process.
"""

from __future__ import annotations

import importlib.util
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import types

import pytest

cp = pytest.importorskip("cpmpy")

from cpmpy import SolverLookup  # noqa: E402

from cpsolve.cpmpy import CPM_cpsolve  # noqa: E402

SOLVER = "cpsolve"


def _suite_file():
    """CPMpy's ``tests/test_constraints.py`` for the installed version, fetched once."""
    version = cp.__version__
    kept = pathlib.Path(sys.prefix) / f"cpmpy-{version}-tests" / "test_constraints.py"
    if kept.exists():
        return kept
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
             f"cpmpy=={version}", "--no-binary", ":all:", "--no-deps", "-d", folder],
            check=True,
        )
        (archive,) = pathlib.Path(folder).glob("cpmpy-*.tar.gz")
        with tarfile.open(archive) as tar:
            member = tar.extractfile(f"cpmpy-{version}/tests/test_constraints.py")
            text = member.read()
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(text)
    return kept


def _register():
    """Adds ``"cpsolve"`` to the solvers ``SolverLookup`` knows, once."""
    listed = SolverLookup.base_solvers.__func__
    if getattr(listed, "with_cpsolve", False):
        return

    def base_solvers(cls):
        return listed(cls) + [(SOLVER, CPM_cpsolve)]

    base_solvers.with_cpsolve = True
    SolverLookup.base_solvers = classmethod(base_solvers)


def _load():
    helpers = types.ModuleType("utils")
    helpers.skip_on_missing_pblib = lambda **_: (lambda test: test)
    sys.modules.setdefault("utils", helpers)
    spec = importlib.util.spec_from_file_location("cpmpy_test_constraints", _suite_file())
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_register()
suite = _load()

test_bool_constraints = suite.test_bool_constraints
test_comparison_constraints = suite.test_comparison_constraints
test_reify_imply_constraints = suite.test_reify_imply_constraints


def pytest_generate_tests(metafunc):
    """CPMpy's conftest: ``generate_constraints.with_args(g)`` runs the test once per
    constraint ``g(solver)`` yields."""
    marker = metafunc.definition.get_closest_marker("generate_constraints")
    if marker is None:
        return
    cases = [pytest.param(SOLVER, c, id=str(c)) for c in marker.args[0](SOLVER)]
    metafunc.parametrize(("solver", "constraint"), cases)


def test_the_suite_covers_every_kind_of_constraint():
    # A fetch that went wrong, or a CPMpy whose generators yield nothing, would pass vacuously.
    counts = [len(list(g(SOLVER))) for g in (suite.bool_exprs, suite.comp_constraints, suite.reify_imply_exprs)]
    assert all(n > 20 for n in counts), counts

"""A model built in Python: variables, constraints and a goal, solved by cpsolve.

A :class:`Model` records each declaration and constraint as a line of `.puz` text
(:meth:`Model.to_puz`) together with the place in the Python source that made it. Solving
hands that text to cpsolve's own reader and compiler in-process, so an error the compiler
finds is raised as a :class:`ModelError` located at the Python line that posted the
offending constraint (its text also shows the `.puz` line, with a caret).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import sys
from collections.abc import Iterable

import numpy as np

from . import _native
from .expressions import Expr, IntVar, VarArray, as_expr, check_int
from .result import Result, status_of

__all__ = ["Model", "ModelError", "Stopped", "MAX_VARIABLES"]

ModelError = _native.ModelError
Stopped = _native.Stopped

#: The most variables one ``int_var``/``bool_var`` call may declare: a shape beyond it is
#: refused before anything is allocated (10^7 variables take gigabytes in the engine).
MAX_VARIABLES = 10**7

#: Values must fit the engine's 64-bit integers with room for sums of a few of them.
MAX_VALUE = 2**62

_LABEL = "<model>"
_NAME = re.compile(r"^[^\W\d]\w*$")
_KEYWORDS = frozenset(
    """let var in forall where given solve minimize maximize option cryptarithm queens
    nothreeinline minesweeper numbermatch compte output if then elseif else endif predicate function
    enum include search constraint set of xor union intersect diff symdiff subset superset
    true false not and or div mod bool _el""".split()
)
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _caller():
    """The first frame outside this package: where the user's code made the line."""
    frame = sys._getframe(1)
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0)
    return (frame.f_code.co_filename, frame.f_lineno)


def _shape(shape):
    if shape is None:
        return None
    if isinstance(shape, (bool, np.bool_)):
        raise TypeError(f"shape must be an int or a tuple of ints, not {shape!r}")
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    if not isinstance(shape, tuple):
        raise TypeError(f"shape must be an int or a tuple of ints, not {type(shape).__name__}")
    dims = tuple(check_int(d, "a dimension of shape") for d in shape)
    if not dims:
        raise ValueError("shape must have at least one dimension")
    if any(d < 0 for d in dims):
        raise ValueError(f"shape {dims} has a negative dimension")
    total = math.prod(dims)
    if total > MAX_VARIABLES:
        raise ValueError(f"shape {dims} asks for {total} variables; one call declares at most {MAX_VARIABLES}")
    return dims


class Model:
    """Variables, constraints and at most one goal (see the module doc)."""

    def __init__(self):
        self._lines = []  # (text, (file, line)) of each declaration and constraint
        self._names = set()
        self._next = 0
        self._goal = None  # (sense, expression, origin)

    # Variables.

    def _name(self, name):
        if name is None:
            while True:
                self._next += 1
                name = f"_v{self._next}"
                if name not in self._names:
                    break
        elif not isinstance(name, str):
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        elif not _NAME.match(name) or name in _KEYWORDS:
            raise ValueError(f"{name!r} cannot name a variable: use letters, digits and _, not a keyword")
        elif name in self._names:
            raise ValueError(f"the model already has a variable named {name!r}")
        self._names.add(name)
        return name

    def _declare(self, lo, hi, shape, name, is_bool):
        shape = _shape(shape)
        if shape is not None and 0 in shape:
            return np.empty(shape, dtype=object).view(VarArray)
        name = self._name(name)
        domain = "bool" if is_bool else f"{lo}..{hi}"
        if shape is None:
            self._lines.append((f"var {name} in {domain}", _caller()))
            return IntVar(name, lo, hi, is_bool, self)
        ranges = ", ".join(f"1..{d}" for d in shape)
        self._lines.append((f"var {name}[{ranges}] in {domain}", _caller()))
        cells = np.empty(math.prod(shape), dtype=object)
        # Cell names as the JSON output gives them: `x[1,2]`, indices from 1, row-major.
        indices = itertools.product(*(range(1, d + 1) for d in shape))
        if len(shape) == 1:
            names = [f"{name}[{i}]" for i in range(1, shape[0] + 1)]
        else:
            names = [f"{name}[{','.join(map(str, index))}]" for index in indices]
        cells[:] = [IntVar(cell, lo, hi, is_bool, self) for cell in names]
        return cells.reshape(shape).view(VarArray)

    def int_var(self, lo, hi, shape=None, name=None):
        """An integer variable with values ``lo..hi`` (both included), or a numpy object array
        of them of ``shape`` (an int or a tuple)."""
        lo, hi = check_int(lo, "lo"), check_int(hi, "hi")
        if lo > hi:
            raise ValueError(f"int_var: lo {lo} is above hi {hi}: the domain would be empty")
        if max(abs(lo), abs(hi)) > MAX_VALUE:
            raise ValueError(f"int_var: values beyond ±2^62 do not fit the engine's integers ({lo}..{hi})")
        return self._declare(lo, hi, shape, name, False)

    def bool_var(self, shape=None, name=None):
        """A 0/1 variable (a condition too), or a numpy object array of them."""
        return self._declare(0, 1, shape, name, True)

    # Constraints and goals.

    def __iadd__(self, constraint):
        self.add(constraint)
        return self

    def add(self, constraint):
        """Posts a condition, or every condition of a list, tuple, numpy array or iterable."""
        origin = _caller()
        for c in _conditions(constraint):
            self._lines.append((c, origin))
        return self

    def minimize(self, e):
        """Look for the least value of ``e`` (replaces an earlier goal)."""
        self._goal = ("minimize", as_expr(e, "the objective"), _caller())

    def maximize(self, e):
        """Look for the greatest value of ``e`` (replaces an earlier goal)."""
        self._goal = ("maximize", as_expr(e, "the objective"), _caller())

    def _all_lines(self):
        lines = list(self._lines)
        if self._goal is not None:
            sense, e, origin = self._goal
            lines.append((f"{sense} {e.to_puz()}", origin))
        return lines

    def to_puz(self):
        """The model as `.puz` text: ``cpsolve model.puz`` solves the same model."""
        return "".join(text + "\n" for text, _ in self._all_lines())

    # Solving.

    def _located(self, error):
        """A ModelError of the `.puz` text, located at the Python line that made that line."""
        lines = self._all_lines()
        line = getattr(error, "line", 0)
        if getattr(error, "file", None) != _LABEL or not 1 <= line <= len(lines):
            return error
        text, (file, pyline) = lines[line - 1]
        column = getattr(error, "column", 0)
        message = getattr(error, "message", str(error))
        first, _, rendered = str(error).partition("\n")
        located = ModelError(f"{file}:{pyline}:{column}: {message}\n{rendered}")
        located.file, located.line, located.column, located.message = file, pyline, column, message
        located.puz_line = line
        located.errors = getattr(error, "errors", [])
        return located

    def _run(self, **kwargs):
        try:
            return _native.run(self.to_puz(), _LABEL, **kwargs)
        except ModelError as error:
            raise self._located(error) from None

    def solve(self, timeout=None, threads=1, nodes=None):
        """One solution, or the proven optimum when the model has a goal. Returns a
        :class:`Result`; a limit that strikes gives status ``"limit"`` (with the best
        solution found before it, if any)."""
        timeout, threads, nodes = _limits(timeout, threads, nodes)
        native = self._run(mode=None, timeout=timeout, nodes=nodes, threads=threads, keep="last")
        return Result.from_native(native)

    def count(self, timeout=None, threads=1, nodes=None):
        """The number of solutions. A limit that strikes raises :class:`Stopped` (its
        ``count`` attribute holds the solutions found so far, which is not the count)."""
        timeout, threads, nodes = _limits(timeout, threads, nodes)
        if self._goal is not None:
            raise ValueError("count() does not apply to a model with a goal (minimize/maximize)")
        native = self._run(mode="count", timeout=timeout, nodes=nodes, threads=threads, keep="none")
        if native["status"] == "limit":
            raise _stopped(native)
        return native["count"]

    def solutions(self, limit=None, timeout=None, nodes=None):
        """A lazy iterator over the solutions, each a :class:`Result` (``s[x]``). The search
        runs a few solutions ahead of the reader and stops when the iterator is closed or
        dropped. ``limit`` ends it after that many; a time or node limit that strikes raises
        :class:`Stopped` after the solutions found before it."""
        timeout, _, nodes = _limits(timeout, 1, nodes)
        if limit is not None:
            limit = check_int(limit, "limit")
            if limit < 0:
                raise ValueError(f"limit must be >= 0, not {limit}")
        if self._goal is not None:
            raise ValueError("solutions() lists the solutions of a model without a goal; solve() optimises")
        return self._iterate(self.to_puz(), limit, timeout, nodes)

    def _iterate(self, text, limit, timeout, nodes):
        if limit == 0:
            return
        native = _native.Solutions(text, _LABEL, None, limit, timeout, nodes)
        layout = None
        try:
            for new_layout, values in native:
                if new_layout is not None:
                    layout = new_layout
                yield Result("solution", None, None, None, layout, values, None)
            summary = native.summary
            if summary is not None and summary["status"] == "limit" and summary["stopped"] != "solutions":
                raise _stopped(summary)
        except ModelError as error:
            raise self._located(error) from None
        finally:
            native.close()

    def explain(self, timeout=None):
        """How the solution follows from the constraints, step by step: a dict shaped as
        ``cpsolve explain --format json`` prints it (``steps``, ``grade``, ``ending``, with
        the status and the solution)."""
        timeout, _, _ = _limits(timeout, 1, None)
        try:
            return json.loads(_native.explain(self.to_puz(), _LABEL, None, timeout))
        except ModelError as error:
            raise self._located(error) from None


def _conditions(constraint):
    """The `.puz` texts of the conditions in ``constraint`` (see :meth:`Model.add`)."""
    stack = [constraint]
    out = []
    while stack:
        c = stack.pop()
        if isinstance(c, Expr):
            if not c.is_bool:
                raise TypeError(
                    f"`{c.to_puz()}` is an integer expression, not a condition: "
                    "post a relation (==, <=, ...), a 0/1 variable or a global constraint"
                )
            out.append(c.to_puz())
        elif isinstance(c, (bool, np.bool_)):
            out.append("1 == 1" if c else "1 == 0")
        elif isinstance(c, np.ndarray):
            stack.extend(reversed(c.ravel(order="C").tolist()))
        elif isinstance(c, (str, bytes)) or not isinstance(c, Iterable):
            raise TypeError(f"a constraint must be a cpsolve condition, not {type(c).__name__} {c!r}")
        else:
            stack.extend(reversed(list(c)))
    return out


def _limits(timeout, threads, nodes):
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float, np.integer, np.floating)):
            raise TypeError(f"timeout must be a number of seconds, not {type(timeout).__name__}")
        timeout = float(timeout)
        if not (timeout >= 0 and math.isfinite(timeout)):
            raise ValueError(f"timeout must be a number of seconds >= 0, not {timeout}")
    threads = check_int(threads, "threads")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, not {threads}")
    if nodes is not None:
        nodes = check_int(nodes, "nodes")
        if nodes < 0:
            raise ValueError(f"nodes must be >= 0, not {nodes}")
    return timeout, threads, nodes


def _stopped(native):
    """The Stopped exception of a run a limit ended."""
    reason = native.get("stopped") or "interrupted"
    found = native.get("count", 0)
    error = Stopped(f"stopped: {reason} limit reached; {found} solutions found so far (not the answer)")
    error.stopped = reason
    error.count = found
    error.stats = native.get("stats")
    return error


def solve_file(path, data=None, timeout=None, threads=1, nodes=None):
    """Solves a model file as ``cpsolve PATH [DATA...]`` does: ``.puz`` (with its includes),
    ``.mine``, ``.fzn``, or ``.mzn`` with ``.dzn`` data files (``data``: a path or a list of
    them; flattening needs ``minizinc``). Returns a :class:`Result`: values by name (``r["x"]``)."""
    path = os.fspath(_path(path, "path"))
    if data is None:
        data = []
    elif isinstance(data, (str, os.PathLike)):
        data = [data]
    data = [os.fspath(_path(d, "a data file")) for d in data]
    timeout, threads, nodes = _limits(timeout, threads, nodes)
    native = _native.solve_file(path, data or None, None, None, timeout, nodes, threads)
    return Result.from_native(native)


def explain_file(path, timeout=None):
    """``cpsolve explain --format json PATH`` as a dict (``steps``, ``grade``, ``ending``, ...)."""
    path = os.fspath(_path(path, "path"))
    timeout, _, _ = _limits(timeout, 1, None)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise OSError(f"cannot read `{path}`: {e.strerror or e}") from None
    return json.loads(_native.explain(text, path, path, timeout))


def _path(p, what):
    if not isinstance(p, (str, os.PathLike)):
        raise TypeError(f"{what} must be a str or a path, not {type(p).__name__}")
    return p



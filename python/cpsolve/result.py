"""What a solve returns: the status, the objective, the effort, and the values.

A :class:`Result` reads a variable's value by the variable (``r[x]``: an int; ``r[q]`` for a
numpy array of variables: a numpy int array of its shape) or, for a model read from a file, by
the name the JSON output gives it (``r["x"]``, ``r["q[3]"]``, or a whole array ``r["q"]``).
``r.to_json()`` is the command line's JSON object of the same run (docs/json.md).
"""

from __future__ import annotations

import json

import numpy as np

from .expressions import Expr, IntVar

__all__ = ["Result", "status_of"]


def status_of(native):
    """The Python status of a native run: ``"optimal"``, ``"solution"``, ``"unsat"`` or
    ``"limit"`` (a limit struck: a solution found before it is still readable)."""
    status = native["status"]
    if status == "solved":
        return "optimal" if native["optimising"] else "solution"
    if status == "unsatisfiable":
        return "unsat"
    return "limit"


class Result:
    """The answer of one run (see the module doc).

    Attributes: ``status`` (``"solution"``, ``"optimal"``, ``"unsat"`` or ``"limit"``),
    ``objective`` (the best value found, or None), ``stats`` (a dict: ``nodes``,
    ``failures``, ``propagations``, ``solutions``, ``max_depth``, ``time`` in seconds),
    ``stopped`` (the limit that struck: ``"time"``, ``"nodes"``, ... or None).
    """

    __slots__ = ("status", "objective", "stats", "stopped", "_layout", "_values", "_json", "_solution")

    def __init__(self, status, objective, stats, stopped, layout, values, json_text):
        self.status = status
        self.objective = objective
        self.stats = stats
        self.stopped = stopped
        self._layout = layout
        self._values = values
        self._json = json_text
        self._solution = None

    @classmethod
    def from_native(cls, native):
        records = native["records"]
        values = records[-1] if records else None
        obj = json.loads(native["json"]) if native["json"] else {}
        stopped = native["stopped"] or obj.get("stopped")
        return cls(
            status_of(native) if "status" in native else "limit",
            native["objective"] if native["objective"] is not None else obj.get("objective"),
            native["stats"],
            stopped,
            native["layout"],
            values,
            native["json"],
        )

    def __repr__(self):
        extra = f", objective={self.objective}" if self.objective is not None else ""
        return f"Result(status={self.status!r}{extra})"

    def has_solution(self):
        """Whether a solution was found (a limit may have struck after it)."""
        if self._values is not None:
            return True
        return bool(self._solutions())

    def __bool__(self):
        return self.has_solution()

    def _solutions(self):
        if not self._json:
            return []
        return json.loads(self._json).get("solutions") or []

    def _by_name(self):
        if self._solution is None:
            found = self._solutions()
            self._solution = found[-1] if found else {}
        return self._solution

    def _missing(self):
        return ValueError(f"no solution to read a value from (status {self.status!r})")

    def __getitem__(self, key):
        if isinstance(key, IntVar):
            if self._values is None:
                raise self._missing()
            try:
                return int(self._values[self._layout[key.name]])
            except KeyError:
                raise KeyError(f"`{key.name}` is not a variable of this result's model") from None
        if isinstance(key, np.ndarray):
            if self._values is None:
                raise self._missing()
            flat = key.ravel(order="C")
            try:
                at = np.fromiter((self._layout[v.name] for v in flat), dtype=np.int64, count=len(flat))
            except (AttributeError, KeyError):
                raise TypeError("r[array] reads an array of this model's variables") from None
            return np.asarray(self._values)[at].reshape(key.shape)
        if isinstance(key, (list, tuple)):
            return [self[k] for k in key]
        if isinstance(key, str):
            return self._named(key)
        if isinstance(key, Expr):
            raise TypeError("r[...] reads variables; for an expression, add a variable equal to it")
        raise TypeError(f"r[...] takes a variable, an array of them or a name, not {type(key).__name__}")

    def _named(self, name):
        solution = self._by_name()
        if not solution and not self.has_solution():
            raise self._missing()
        if name in solution:
            return solution[name]
        cells = {k: v for k, v in solution.items() if k.startswith(name + "[")}
        if not cells:
            raise KeyError(f"no variable named {name!r} in the solution")
        return _nest(name, cells)

    def to_json(self):
        """The command line's JSON object of this run, as one line of text (docs/json.md)."""
        return self._json


def _nest(name, cells):
    """The cells ``name[i,j]`` of a solution as a numpy array (indices in row-major order)."""
    keys = list(cells)
    indices = [tuple(int(i) for i in k[len(name) + 1 : -1].split(",")) for k in keys]
    lows = [min(ix[d] for ix in indices) for d in range(len(indices[0]))]
    shape = [max(ix[d] for ix in indices) - lows[d] + 1 for d in range(len(lows))]
    out = np.zeros(shape, dtype=np.int64)
    for k, ix in zip(keys, indices):
        out[tuple(i - lo for i, lo in zip(ix, lows))] = cells[k]
    return out

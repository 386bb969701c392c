"""A split search on a Dask cluster: the parts of ``cpsolve split`` as tasks.

``cpsolve split`` cuts a model's search tree into slices (``option part = i, k``: the i-th of
k, each a fixed set of subtrees in depth-first order). Here each slice is a task of a
``dask.distributed`` client: the tasks run wherever the cluster has workers (worker
processes, other machines), and their answers are put together as ``cpsolve merge`` does.

- :func:`count`: the counts of all parts, added up; a part stopped by a limit makes the
  whole raise :class:`cpsolve.Stopped` (a partial sum is never the count).
- :func:`solve`: without a goal, the first part to find a solution cancels the others;
  every part finished without one proves there is none. With a goal, every part searches
  its slice to the end under its own bound and the best of them is the optimum, proven
  only when every part finished (a limit gives status ``"limit"``).

Use many more parts than workers (the field's rule for embarrassingly parallel search):
uneven slices then balance. The tasks carry the model as `.puz` text, so workers need only
``pip install`` of this package.
"""

from __future__ import annotations

import json

from . import _native
from .model import Model, Stopped
from .result import Result

__all__ = ["count", "solve"]

_LABEL = "<model>"


def _text(model):
    if isinstance(model, Model):
        return model.to_puz()
    if isinstance(model, str):
        return model
    raise TypeError(f"model must be a cpsolve.Model or .puz text, not {type(model).__name__}")


def _parts(parts):
    if isinstance(parts, bool) or not isinstance(parts, int):
        raise TypeError(f"parts must be an int, not {type(parts).__name__}")
    if parts < 1:
        raise ValueError(f"parts must be >= 1, not {parts}")
    return parts


def _run_part(text, index, parts, mode, timeout):
    """One task: part ``index`` (from 1) of ``parts``, run in the worker's process."""
    sliced = f"{text}option part = {index}, {parts}\n"
    keep = "none" if mode == "count" else "last"
    return _native.run(sliced, _LABEL, None, mode, None, timeout, None, 1, keep)


def count(model, client, parts, timeout=None):
    """The number of solutions, counted over ``parts`` tasks on ``client``."""
    text, parts = _text(model), _parts(parts)
    futures = [client.submit(_run_part, text, i, parts, "count", timeout, pure=False) for i in range(1, parts + 1)]
    answers = client.gather(futures)
    total = 0
    for answer in answers:
        if answer["status"] == "limit":
            for f in futures:
                f.cancel()
            error = Stopped(f"stopped: {answer['stopped']} limit reached in a part; the parts' sum is not the count")
            error.stopped = answer["stopped"]
            raise error
        total += answer["count"]
    return total


def solve(model, client, parts, timeout=None):
    """One solution, or the optimum of the model's goal, over ``parts`` tasks on ``client``;
    returns a :class:`cpsolve.Result` (its JSON is the part's that gave the answer)."""
    from distributed import as_completed

    text, parts = _text(model), _parts(parts)
    futures = [client.submit(_run_part, text, i, parts, None, timeout, pure=False) for i in range(1, parts + 1)]
    best, limited, optimising, stats = None, False, False, None
    for future in as_completed(futures):
        answer = future.result()
        optimising = answer["optimising"]
        stats = answer["stats"]
        limited |= answer["status"] == "limit"
        if not answer["records"]:
            continue
        if not optimising:
            for f in futures:
                f.cancel()
            return _result(answer, "solution")
        better = best is None or (
            answer["objective"] < best["objective"] if _minimising(text) else answer["objective"] > best["objective"]
        )
        if better:
            best = answer
    if best is None:
        status = "limit" if limited else "unsat"
        return Result(status, None, stats, "time" if limited else None, {}, None, json.dumps({"status": status}))
    return _result(best, "limit" if limited else "optimal")


def _minimising(text):
    return any(line.startswith("minimize ") for line in text.splitlines())


def _result(answer, status):
    records = answer["records"]
    return Result(
        status,
        answer["objective"],
        answer["stats"],
        answer["stopped"],
        answer["layout"],
        records[-1] if records else None,
        answer["json"],
    )

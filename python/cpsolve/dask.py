"""A split search on a Dask cluster: the parts of ``cpsolve split`` as tasks.

``cpsolve split`` cuts a model's search tree into slices (``option part = i, k``: the i-th of
k, each a fixed set of subtrees in depth-first order). Here each slice is a task of a
``dask.distributed`` client: the tasks run wherever the cluster has workers (worker
processes, other machines), and their answers are put together as ``cpsolve merge`` does.

- :func:`count`: the counts of all parts, added up; a part stopped by a limit makes the
  whole raise :class:`cpsolve.Stopped` (a partial sum is never the count).
- :func:`solve`: without a goal, the first part to find a solution cancels the others;
  every part finished without one proves there is none. With a goal, every part searches
  its slice to the end by branch and bound, and the parts share their best objective
  while they run (below); the best of them is the optimum, proven only when every part
  finished (a limit gives status ``"limit"``).

Sharing the bound. A part's search runs on a thread of its task (without the GIL) with a
``_native.SharedBound``: the search prunes with it at every node and offers it each
improving solution. The task's own thread meanwhile trades it, every ``_POLL`` seconds,
with a small Dask actor (:class:`_Best`, on one worker) that keeps the best over all the
parts: one round trip publishes the part's best and brings back everyone's. The value
traded is a *rank* (lower is better: the objective minimised, its negation maximised), so
neither the actor nor this module needs the model's sense. A bound from outside only
prunes inside the part's own subtrees, so the parts still partition the tree; a part that
it cut everywhere ends with status ``"no better"`` and the ``bound`` it was no better than
(never ``"unsatisfiable"``): the optimum is still the best solution of some part.

Use many more parts than workers (the field's rule for embarrassingly parallel search):
uneven slices then balance. The tasks carry the model as `.puz` text, so workers need only
``pip install`` of this package.
"""

from __future__ import annotations

import json
import threading

from . import _native
from .model import Model, Stopped
from .result import Result

__all__ = ["count", "solve"]

_LABEL = "<model>"

# How often a running part trades its bound with the others, in seconds: often enough that
# a bound found elsewhere prunes within a blink, rarely enough that the round trips to the
# actor cost nothing next to the search.
_POLL = 0.05


class _Best:
    """A Dask actor: the least rank offered by the parts of one :func:`solve`."""

    def __init__(self):
        self.rank = None

    def offer(self, rank):
        """Keeps ``rank`` if it is the best yet (``None`` offers nothing); returns the best."""
        if rank is not None and (self.rank is None or rank < self.rank):
            self.rank = rank
        return self.rank


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


def _run_part(text, index, parts, mode, timeout, best=None):
    """One task: part ``index`` (from 1) of ``parts``, run in the worker's process; with
    ``best`` (a :class:`_Best` actor), its bound is traded with the other parts'."""
    sliced = f"{text}option part = {index}, {parts}\n"
    keep = "none" if mode == "count" else "last"
    if best is None:
        return _native.run(sliced, _LABEL, None, mode, None, timeout, None, 1, keep)
    bound = _native.SharedBound()
    ran = {}

    def search():
        try:
            ran["answer"] = _native.run(sliced, _LABEL, None, mode, None, timeout, None, 1, keep, bound)
        except BaseException as error:  # raised again in the task's thread
            ran["error"] = error

    # A part that starts after others found solutions starts with their bound.
    shared = best.offer(None).result()
    if shared is not None:
        bound.offer(shared)
    thread = threading.Thread(target=search, name=f"cpsolve part {index}")
    thread.start()
    running = True
    while running:
        thread.join(_POLL)
        # Once more after the search ended: its last improvement reaches the parts still running.
        running = thread.is_alive()
        shared = best.offer(bound.rank()).result()
        if shared is not None:
            bound.offer(shared)
    if "error" in ran:
        raise ran["error"]
    return ran["answer"]


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
    # Only a model with a goal has a bound to share (a model without one ignores it).
    sharing = _goal(text) is not None
    best_actor = client.submit(_Best, actor=True).result() if sharing else None
    futures = [
        client.submit(_run_part, text, i, parts, None, timeout, best_actor, pure=False) for i in range(1, parts + 1)
    ]
    best, limited, optimising, stats = None, False, False, _no_stats()
    for future in as_completed(futures):
        answer = future.result()
        optimising = answer["optimising"]
        _add_stats(stats, answer)
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
        # A part that was no better than a bound while no part holds a solution cannot be:
        # bounds come from solutions. Said as a limit rather than as an answer.
        limited |= stats["parts_bounded"] > 0
        status = "limit" if limited else "unsat"
        return Result(status, None, stats, "time" if limited else None, {}, None, json.dumps({"status": status}))
    return _result(best, "limit" if limited else "optimal", stats)


def _goal(text):
    """``"minimize"`` or ``"maximize"``, as the model's goal line says, or None."""
    for line in text.splitlines():
        for goal in ("minimize", "maximize"):
            if line.startswith(goal + " "):
                return goal
    return None


def _minimising(text):
    return _goal(text) == "minimize"


def _no_stats():
    return {"nodes": 0, "failures": 0, "propagations": 0, "solutions": 0, "max_depth": 0, "time": 0.0, "parts_bounded": 0}


def _add_stats(stats, answer):
    """Adds a part's effort to the whole's; ``parts_bounded`` counts the parts that ended
    with a bound from another part better than their own best."""
    for name, value in answer["stats"].items():
        stats[name] = max(stats[name], value) if name == "max_depth" else stats[name] + value
    stats["parts_bounded"] += answer.get("bound") is not None


def _result(answer, status, stats=None):
    records = answer["records"]
    return Result(
        status,
        answer["objective"],
        stats if stats is not None else answer["stats"],
        answer["stopped"],
        answer["layout"],
        records[-1] if records else None,
        answer["json"],
    )

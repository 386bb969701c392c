"""The global constraints and functions of the `.puz` language, as Python functions.

Each takes Python lists, tuples or numpy arrays of expressions (any shape: they are read in
row-major order) and integers, and returns an expression; the meaning is the `.puz`
language's, which is MiniZinc's (docs/language.md, "Global constraints"), except that
positions count from 0 as Python's do: ``element(a, i)`` is ``a[i]``, and ``circuit(succ)``
means ``succ[i]`` is the position after ``i``.
"""

from __future__ import annotations

import builtins

from .expressions import Expr, as_expr, call, check_int, condition, constants, flatten

__all__ = [
    "all_different",
    "all_equal",
    "among",
    "abs",
    "bin_packing_load",
    "circuit",
    "count",
    "cumulative",
    "decreasing",
    "diffn",
    "disjunctive",
    "div",
    "element",
    "exists",
    "forall",
    "global_cardinality",
    "implies",
    "increasing",
    "inverse",
    "lex_less",
    "lex_lesseq",
    "max",
    "min",
    "mod",
    "nvalue",
    "regular",
    "subcircuit",
    "sum",
    "table",
    "value_precede",
    "xorall",
]


def _list(items, what):
    return flatten(items, what)


def _shifted(items, what):
    """Positions from 0, written as the `.puz` language's positions from 1."""
    return [e + 1 for e in _list(items, what)]


def _literal(values):
    return "[" + ", ".join(str(v) for v in values) + "]"


def all_different(items):
    """The elements take pairwise different values."""
    return call("alldifferent", _list(items, "all_different's list"), True)


def all_equal(items):
    """The elements take one value."""
    return call("all_equal", _list(items, "all_equal's list"), True)


def increasing(items):
    """Each element is at most the next."""
    return call("increasing", _list(items, "increasing's list"), True)


def decreasing(items):
    """Each element is at least the next."""
    return call("decreasing", _list(items, "decreasing's list"), True)


def sum(items):  # noqa: A001 - the name of the .puz function
    """The sum of the elements (0 for none)."""
    terms = _list(items, "sum's list")
    return call("sum", terms, False)


def min(*items):  # noqa: A001
    """The least of the elements: ``min(a, b)`` or ``min(list)``."""
    terms = _list(items[0] if len(items) == 1 else list(items), "min's arguments")
    if not terms:
        raise ValueError("min of no element")
    return call("min", terms, False)


def max(*items):  # noqa: A001
    """The greatest of the elements: ``max(a, b)`` or ``max(list)``."""
    terms = _list(items[0] if len(items) == 1 else list(items), "max's arguments")
    if not terms:
        raise ValueError("max of no element")
    return call("max", terms, False)


def abs(e):  # noqa: A001
    """The absolute value."""
    return builtins.abs(as_expr(e, "abs's argument"))


def div(a, b):
    """``a div b``, truncated toward zero (MiniZinc's); ``b`` a constant."""
    a = as_expr(a, "div's dividend")
    b = as_expr(b, "div's divisor")
    return Expr([a, b], False, lambda s: f"({s[0]} div {s[1]})")


def mod(a, b):
    """``a mod b``, with the sign of ``a`` (MiniZinc's); ``b`` a constant."""
    a = as_expr(a, "mod's dividend")
    b = as_expr(b, "mod's divisor")
    return Expr([a, b], False, lambda s: f"({s[0]} mod {s[1]})")


def count(items, value):
    """How many elements equal ``value`` (an expression or an integer)."""
    terms = _list(items, "count's list")
    v = as_expr(value, "count's value")
    return Expr(terms + [v], False, lambda s: f"count([{', '.join(s[:-1])}], {s[-1]})")


def exists(items):
    """At least one of the conditions holds."""
    return call("exists", [condition(c, "exists") for c in _list(items, "exists' list")], True)


def forall(items):
    """All the conditions hold."""
    return call("forall", [condition(c, "forall") for c in _list(items, "forall's list")], True)


def xorall(items):
    """An odd number of the conditions hold."""
    return call("xorall", [condition(c, "xorall") for c in _list(items, "xorall's list")], True)


def implies(a, b):
    """The condition ``a -> b``."""
    return condition(a, "implies").implies(b)


def element(items, index):
    """``items[index]`` with a variable ``index`` counted from 0 (an element constraint);
    an index outside the list makes the enclosing condition false, as in MiniZinc."""
    terms = _list(items, "element's list")
    if not terms:
        raise ValueError("element of an empty list")
    i = as_expr(index, "element's index")
    n = len(terms)
    # A `let` names the list so that it can be indexed (the language indexes names only).
    return Expr(
        terms + [i], False, lambda s: f"(let _el = [{', '.join(s[:n])}] in _el[{s[n]} + 1])"
    )


def table(items, tuples):
    """The elements take the values of one of the rows of ``tuples`` (integers)."""
    terms = _list(items, "table's variables")
    rows = [constants(row, "a row of table's tuples") for row in _rows(tuples)]
    for k, row in enumerate(rows):
        if len(row) != len(terms):
            raise ValueError(f"table: row {k} has {len(row)} values for {len(terms)} variables")
    text = "[" + ", ".join(_literal(row) for row in rows) + "]"
    return call("table", terms, True, extra=f", {text}")


def _rows(tuples):
    if hasattr(tuples, "tolist"):
        tuples = tuples.tolist()
    if not isinstance(tuples, (list, tuple)):
        raise TypeError(f"table's tuples must be a list of rows, not {type(tuples).__name__}")
    return tuples


def _lists(what, *lists):
    """Several lists of one length, each of expressions; the texts are joined per list."""
    out = [_list(items, f"{what}'s {name}") for name, items in lists]
    lengths = {len(x) for x in out}
    if len(lengths) > 1:
        names = ", ".join(name for name, _ in lists)
        raise ValueError(f"{what}: {names} must have one length, not {sorted(lengths)}")
    return out


def _multi(name, groups, scalars=()):
    """``name([g1...], [g2...], ..., s1, s2)`` over lists of expressions and expressions."""
    sizes = [len(g) for g in groups]
    args = [e for g in groups for e in g] + list(scalars)

    def write(s):
        parts, at = [], 0
        for size in sizes:
            parts.append("[" + ", ".join(s[at : at + size]) + "]")
            at += size
        parts.extend(s[at:])
        return f"{name}({', '.join(parts)})"

    return Expr(args, True, write)


def circuit(succ):
    """``succ[i]`` is the position after ``i`` (from 0) on one cycle through all of them."""
    return call("circuit", _shifted(succ, "circuit's successors"), True)


def subcircuit(succ):
    """As :func:`circuit`, through the positions with ``succ[i] != i``."""
    return call("subcircuit", _shifted(succ, "subcircuit's successors"), True)


def inverse(f, g):
    """``f[i] == j`` exactly when ``g[j] == i`` (positions from 0)."""
    a, b = _lists("inverse", ("f", f), ("g", g))
    return _multi("inverse", [[e + 1 for e in a], [e + 1 for e in b]])


def cumulative(start, duration, demand, capacity):
    """Tasks starting at ``start[i]``, lasting ``duration[i]``, using ``demand[i]`` of a
    resource of ``capacity`` at each moment (any may be variables)."""
    groups = _lists("cumulative", ("start", start), ("duration", duration), ("demand", demand))
    return _multi("cumulative", groups, [as_expr(capacity, "cumulative's capacity")])


def disjunctive(start, duration):
    """No two tasks overlap (tasks of duration 0 go anywhere)."""
    return _multi("disjunctive", _lists("disjunctive", ("start", start), ("duration", duration)))


def diffn(x, y, dx, dy):
    """Rectangles at ``(x[i], y[i])`` of sides ``dx[i]``, ``dy[i]`` do not overlap."""
    return _multi("diffn", _lists("diffn", ("x", x), ("y", y), ("dx", dx), ("dy", dy)))


def lex_less(a, b):
    """``a`` comes before ``b`` in dictionary order."""
    return _multi("lex_less", [_list(a, "lex_less's a"), _list(b, "lex_less's b")])


def lex_lesseq(a, b):
    """``a`` comes before ``b`` in dictionary order, or equals it."""
    return _multi("lex_lesseq", [_list(a, "lex_lesseq's a"), _list(b, "lex_lesseq's b")])


def global_cardinality(items, cover, counts, closed=False):
    """``counts[k]`` of the elements equal ``cover[k]`` (integers); with ``closed``, every
    element takes a value of ``cover``."""
    terms = _list(items, "global_cardinality's list")
    values = constants(cover, "global_cardinality's cover")
    cnt = _list(counts, "global_cardinality's counts")
    if len(values) != len(cnt):
        raise ValueError("global_cardinality: cover and counts must have one length")
    name = "global_cardinality_closed" if closed else "global_cardinality"
    n, c = len(terms), len(cnt)

    def write(s):
        return f"{name}([{', '.join(s[:n])}], {_literal(values)}, [{', '.join(s[n:n + c])}])"

    return Expr(terms + cnt, True, write)


def among(n, items, values):
    """``n`` of the elements take a value of ``values`` (integers)."""
    terms = _list(items, "among's list")
    allowed = constants(values, "among's values")
    n = as_expr(n, "among's count")
    text = "{" + ", ".join(str(v) for v in sorted(set(allowed))) + "}"
    return Expr([n] + terms, True, lambda s: f"among({s[0]}, [{', '.join(s[1:])}], {text})")


def nvalue(n, items):
    """The elements take ``n`` distinct values."""
    terms = _list(items, "nvalue's list")
    n = as_expr(n, "nvalue's count")
    return Expr([n] + terms, True, lambda s: f"nvalue({s[0]}, [{', '.join(s[1:])}])")


def value_precede(s, t, items):
    """No ``t`` among the elements before the first ``s`` (integers)."""
    s, t = check_int(s, "value_precede's s"), check_int(t, "value_precede's t")
    terms = _list(items, "value_precede's list")
    return Expr(terms, True, lambda x: f"value_precede({s}, {t}, [{', '.join(x)}])")


def bin_packing_load(load, bin, weights):  # noqa: A002
    """Item ``i`` of weight ``weights[i]`` (integers) goes in bin ``bin[i]`` (from 1);
    ``load[b]`` is the weight in bin ``b``."""
    loads = _list(load, "bin_packing_load's load")
    bins = _list(bin, "bin_packing_load's bin")
    w = constants(weights, "bin_packing_load's weights")
    if len(w) != len(bins):
        raise ValueError("bin_packing_load: bin and weights must have one length")
    nl = len(loads)

    def write(s):
        return f"bin_packing_load([{', '.join(s[:nl])}], [{', '.join(s[nl:])}], {_literal(w)})"

    return Expr(loads + bins, True, write)


def regular(items, states, symbols, transitions, start, accepting):
    """The values of the elements (symbols ``1..symbols``) form a word the automaton accepts:
    states ``1..states``, ``transitions`` a states × symbols table of next states (0: none),
    ``start`` state and the set of ``accepting`` states."""
    terms = _list(items, "regular's list")
    q, s = check_int(states, "regular's states"), check_int(symbols, "regular's symbols")
    rows = [constants(row, "a row of regular's transitions") for row in _rows(transitions)]
    if len(rows) != q or any(len(r) != s for r in rows):
        raise ValueError(f"regular: transitions must be a {q} × {s} table")
    q0 = check_int(start, "regular's start")
    final = "{" + ", ".join(str(v) for v in sorted(set(constants(accepting, "regular's accepting")))) + "}"
    table_text = "[" + ", ".join(_literal(r) for r in rows) + "]"
    return Expr(
        terms,
        True,
        lambda x: f"regular([{', '.join(x)}], {q}, {s}, {table_text}, {q0}, {final})",
    )

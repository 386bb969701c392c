"""Expressions over cpsolve variables, written as `.puz` text.

An expression is a small tree: variables and integers at the leaves, operators and global
constraints at the nodes. Python's operators build it (``x + 2 * y <= 10``, ``(a == 1) | b``,
``~flag``); nothing is evaluated in Python. When a model is solved, each tree is written in
the `.puz` language (``to_puz``) and read by cpsolve's own compiler, so an expression means
exactly what the same line of a `.puz` file means (docs/language.md).

Two kinds of expression: integer ones (variables, sums, products, ``abs``, ``min``, ...) and
conditions (relations, ``&``, ``|``, ``~``, global constraints, 0/1 variables). A condition
used as a number counts 1 when it holds (``sum([x > 3 for x in xs]) == 2``). Only conditions
can be posted as constraints.

Indices are Python's: ``element(a, i)`` is ``a[i]`` counted from 0, and the successor
arrays of ``circuit``, ``subcircuit`` and ``inverse`` hold positions from 0.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["Expr", "IntVar", "as_expr"]


def check_int(value, what="a value"):
    """An integer argument (Python or numpy), else a TypeError that says what was given."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    raise TypeError(f"{what} must be an integer, not {type(value).__name__} {value!r}")


def as_expr(value, what="an operand"):
    """An expression for ``value``: itself, or a constant for an integer or a bool."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, (bool, np.bool_, numbers.Integral)):
        return Const(int(value))
    if isinstance(value, np.ndarray) and value.shape == ():
        return as_expr(value.item(), what)
    raise TypeError(
        f"{what} must be a cpsolve expression or an integer, not {type(value).__name__} {value!r}"
    )


def flatten(items, what="a list"):
    """The elements of a list, tuple or numpy array (nested ones too), in row-major order."""
    if isinstance(items, np.ndarray):
        return [as_expr(v, f"an element of {what}") for v in items.ravel(order="C")]
    if isinstance(items, (list, tuple)):
        out = []
        for item in items:
            if isinstance(item, (list, tuple, np.ndarray)):
                out.extend(flatten(item, what))
            else:
                out.append(as_expr(item, f"an element of {what}"))
        return out
    if isinstance(items, Expr):
        return [items]
    raise TypeError(f"{what} must be a list, tuple or numpy array, not {type(items).__name__}")


def constants(items, what):
    """A flat list of integers from a list, tuple or numpy array of integers."""
    if isinstance(items, np.ndarray):
        items = items.ravel(order="C").tolist()
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{what} must be a list of integers, not {type(items).__name__}")
    return [check_int(v, f"an element of {what}") for v in items]


class Expr:
    """A node of an expression tree (see the module doc)."""

    __slots__ = ("args", "is_bool", "write")

    def __init__(self, args, is_bool, write):
        # `write` makes the node's text from its arguments' texts.
        self.args = args
        self.is_bool = is_bool
        self.write = write

    def to_puz(self):
        """The expression in the `.puz` language."""
        return render(self)

    def text(self, args):
        """The node's text from its arguments' texts."""
        return self.write(args)

    def __repr__(self):
        return self.to_puz()

    # A variable or an expression is not a truth value: `if x == 3:` or `x in [1, 2]` in
    # Python would silently ask the wrong question.
    def __bool__(self):
        raise TypeError(
            f"`{self.to_puz()}` has no truth value in Python: post it with `m += ...`, "
            "or read its value from a solution (`r[x]`)"
        )

    __hash__ = object.__hash__

    # Arithmetic.
    def __add__(self, other):
        return binary("+", self, other)

    def __radd__(self, other):
        return binary("+", other, self)

    def __sub__(self, other):
        return binary("-", self, other)

    def __rsub__(self, other):
        return binary("-", other, self)

    def __mul__(self, other):
        return binary("*", self, other)

    def __rmul__(self, other):
        return binary("*", other, self)

    def __floordiv__(self, other):
        raise TypeError("use cpsolve.div(a, b) (truncating, as MiniZinc's div) rather than //")

    def __mod__(self, other):
        raise TypeError("use cpsolve.mod(a, b) (truncating, as MiniZinc's mod) rather than %")

    def __neg__(self):
        return Expr([self], False, lambda s: f"(-{s[0]})")

    def __pos__(self):
        return self

    def __abs__(self):
        return Expr([self], False, lambda s: f"abs({s[0]})")

    # Relations.
    def __eq__(self, other):
        return relation("==", self, other)

    def __ne__(self, other):
        return relation("!=", self, other)

    def __lt__(self, other):
        return relation("<", self, other)

    def __le__(self, other):
        return relation("<=", self, other)

    def __gt__(self, other):
        return relation(">", self, other)

    def __ge__(self, other):
        return relation(">=", self, other)

    # Logic, over conditions.
    def __and__(self, other):
        return logic("and", self, other)

    def __rand__(self, other):
        return logic("and", other, self)

    def __or__(self, other):
        return logic("or", self, other)

    def __ror__(self, other):
        return logic("or", other, self)

    def __xor__(self, other):
        return logic("xor", self, other)

    def __rxor__(self, other):
        return logic("xor", other, self)

    def __invert__(self):
        condition(self, "~")
        return Expr([self], True, lambda s: f"(not {s[0]})")

    def implies(self, other):
        """The condition ``self -> other``."""
        return logic("->", self, other)

    def iff(self, other):
        """The condition ``self <-> other``."""
        return logic("<->", self, other)


class Const(Expr):
    """An integer constant."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.args = ()
        self.is_bool = False
        self.value = value

    def text(self, _):
        return str(self.value) if self.value >= 0 else f"({self.value})"


class IntVar(Expr):
    """A decision variable: a scalar, or one cell of an array declared at once.

    ``name`` is how the `.puz` text and the JSON output name it (``x``, ``q[3]``,
    ``grid[2,5]``: indices from 1 there, as in the `.puz` language).
    """

    __slots__ = ("name", "lo", "hi", "model")

    def __init__(self, name, lo, hi, is_bool, model):
        # Made by the thousand for an array: no closure, no super() call.
        self.args = ()
        self.is_bool = is_bool
        self.name = name
        self.lo = lo
        self.hi = hi
        self.model = model

    def text(self, _):
        return self.name


def condition(e, op):
    """Checks that ``e`` is a condition, for the operator ``op``."""
    e = as_expr(e, f"an operand of {op}")
    if not e.is_bool:
        raise TypeError(
            f"`{op}` joins conditions (relations, 0/1 variables, global constraints), "
            f"not the integer expression `{e.to_puz()}`"
        )
    return e


def binary(op, a, b):
    a = as_expr(a, f"an operand of {op}")
    b = as_expr(b, f"an operand of {op}")
    return Expr([a, b], False, lambda s: f"({s[0]} {op} {s[1]})")


def relation(op, a, b):
    a = as_expr(a, f"an operand of {op}")
    b = as_expr(b, f"an operand of {op}")
    # Between two conditions, `==` and `!=` are the `.puz` language's equivalence and its
    # negation. Anywhere else a condition is compared as a number, 1 when it holds: the
    # language compares only integers with integers, so it is written `bool2int(c)`. A 0/1
    # variable is an integer already.
    if not (a.is_bool and b.is_bool and op in ("==", "!=")):
        a, b = as_number(a), as_number(b)
    return Expr([a, b], True, lambda s: f"({s[0]} {op} {s[1]})")


def as_number(e):
    """``e``, or ``bool2int(e)`` for a condition that is not a 0/1 variable."""
    if e.is_bool and not isinstance(e, IntVar):
        return Expr([e], False, lambda s: f"bool2int({s[0]})")
    return e


def logic(op, a, b):
    a = condition(a, op)
    b = condition(b, op)
    return Expr([a, b], True, lambda s: f"({s[0]} {op} {s[1]})")


def call(name, items, is_bool, extra=""):
    """``name([items...]extra)``: a function or constraint over a list."""
    return Expr(items, is_bool, lambda s: f"{name}([{', '.join(s)}]{extra})")


def render(root):
    """The text of an expression tree, without recursion (a sum of 10^5 terms is a chain
    10^5 deep) and writing a shared node once."""
    if not root.args:
        return root.text(())
    done = {}
    stack = [root]
    while stack:
        node = stack[-1]
        if id(node) in done:
            stack.pop()
            continue
        pending = [a for a in node.args if id(a) not in done]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        done[id(node)] = node.text([done[id(a)] for a in node.args])
    return done[id(root)]


_COMPARE = {
    "__eq__": np.frompyfunc(lambda a, b: a == b, 2, 1),
    "__ne__": np.frompyfunc(lambda a, b: a != b, 2, 1),
    "__lt__": np.frompyfunc(lambda a, b: a < b, 2, 1),
    "__le__": np.frompyfunc(lambda a, b: a <= b, 2, 1),
    "__gt__": np.frompyfunc(lambda a, b: a > b, 2, 1),
    "__ge__": np.frompyfunc(lambda a, b: a >= b, 2, 1),
}


class VarArray(np.ndarray):
    """A numpy object array of variables or expressions whose comparisons give arrays of
    conditions (a plain object array would ask each condition for a Python bool), and whose
    cells a variable may index (``x[i]``: an element constraint, ``i`` from 0)."""

    def __getitem__(self, key):
        if isinstance(key, Expr):
            if self.ndim != 1:
                raise TypeError("a variable index reads a 1-d array: index each dimension's row first")
            from .globals import element

            return element(np.asarray(self), key)
        return super().__getitem__(key)

    def __hash__(self):
        return id(self)


def _comparison(name):
    ufunc = _COMPARE[name]

    def compare(self, other):
        return ufunc(np.asarray(self), np.asarray(other) if isinstance(other, np.ndarray) else other).view(VarArray)

    compare.__name__ = name
    return compare


for _name in _COMPARE:
    setattr(VarArray, _name, _comparison(_name))

"""cpsolve as a CPMpy solver: ``CPM_cpsolve(model).solve()``.

A CPMpy (1.1) ``SolverInterface`` modelled on CPMpy's own Pumpkin backend. CPMpy's
expressions are decomposed only where cpsolve has no counterpart (``decompose_in_tree`` with
:attr:`CPM_cpsolve.supported_global_constraints`); the rest, nested and reified as written, is
translated into a :class:`cpsolve.Model`, whose compiler introduces what it needs.
Positions count from 0 as in CPMpy (``Element``, ``Circuit``, ``Inverse``).

    import cpmpy as cp
    from cpsolve.cpmpy import CPM_cpsolve
    x = cp.intvar(0, 9, shape=3)
    s = CPM_cpsolve(cp.Model(cp.AllDifferent(x), cp.sum(x) == 6))
    s.solve(time_limit=5); print(x.value())
"""

from __future__ import annotations

import time

import numpy as np
from cpmpy.exceptions import NotSupportedError
from cpmpy.expressions.core import BoolVal, Comparison, Expression, Operator
from cpmpy.expressions.globalconstraints import GlobalConstraint
from cpmpy.expressions.globalfunctions import GlobalFunction
from cpmpy.expressions.utils import is_any_list, is_num
from cpmpy.expressions.variables import NegBoolView, _BoolVarImpl, _IntVarImpl, _NumVarImpl
from cpmpy.solvers.solver_interface import ExitStatus, SolverInterface, SolverStatus
from cpmpy.transformations.decompose_global import decompose_in_tree, decompose_objective
from cpmpy.transformations.get_variables import get_variables
from cpmpy.transformations.normalize import toplevel_list

import cpsolve

__all__ = ["CPM_cpsolve"]


class CPM_cpsolve(SolverInterface):
    """CPMpy's interface to cpsolve (see the module doc)."""

    supported_global_constraints = frozenset(
        {"alldifferent", "circuit", "table", "element", "min", "max", "abs", "xor", "inverse",
         "increasing", "decreasing", "allequal", "count"}
    )
    # The `.puz` language posts a global constraint only at the top level (it is not a
    # condition to reify or negate), so CPMpy decomposes those found inside an expression;
    # `xorall` is a condition.
    supported_reified_global_constraints = frozenset({"xor"})

    @staticmethod
    def supported():
        return True

    @staticmethod
    def version():
        return "cpsolve 0.1.0"

    def __init__(self, cpm_model=None, subsolver=None):
        self.native = cpsolve.Model()
        self._goal = None
        super().__init__(name="cpsolve", cpm_model=cpm_model)

    @property
    def native_model(self):
        return self.native

    def solver_var(self, cpm_var):
        if is_num(cpm_var):
            return int(cpm_var)
        if isinstance(cpm_var, NegBoolView):
            return ~self.solver_var(cpm_var._bv)
        if cpm_var not in self._varmap:
            if isinstance(cpm_var, _BoolVarImpl):
                self._varmap[cpm_var] = self.native.bool_var()
            elif isinstance(cpm_var, _IntVarImpl):
                self._varmap[cpm_var] = self.native.int_var(int(cpm_var.lb), int(cpm_var.ub))
            else:
                raise NotImplementedError(f"cpsolve: variables of type {type(cpm_var)} are not supported")
        return self._varmap[cpm_var]

    def transform(self, cpm_expr):
        cons = toplevel_list(cpm_expr)
        return decompose_in_tree(
            cons,
            supported=self.supported_global_constraints,
            supported_reified=self.supported_reified_global_constraints,
        )

    def add(self, cpm_expr):
        get_variables(cpm_expr, collect=self.user_vars)
        for con in self.transform(cpm_expr):
            self.native += _cond(self._expr(con))
        return self

    __add__ = add

    def objective(self, expr, minimize=True):
        get_variables(expr, collect=self.user_vars)
        obj, extra = decompose_objective(
            expr,
            supported=self.supported_global_constraints,
            supported_reified=self.supported_reified_global_constraints,
        )
        self.add(extra)
        self._goal = (self._expr(obj), minimize)
        if minimize:
            self.native.minimize(_num(self._goal[0]))
        else:
            self.native.maximize(_num(self._goal[0]))

    def has_objective(self):
        return self._goal is not None

    def _expr(self, e):
        """A cpsolve expression for a CPMpy one."""
        if is_num(e):
            return int(e)
        if isinstance(e, BoolVal):
            return int(bool(e.value()))
        if isinstance(e, np.ndarray) or is_any_list(e):
            return [self._expr(a) for a in e]
        if isinstance(e, _NumVarImpl):
            return self.solver_var(e)
        if isinstance(e, Comparison):
            a, b = (self._expr(x) for x in e.args)
            a, b = _num(a), _num(b)
            return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
                    "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b}[e.name]()
        if isinstance(e, Operator):
            return self._operator(e)
        if isinstance(e, (GlobalConstraint, GlobalFunction)):
            return self._global(e)
        raise NotSupportedError(f"cpsolve: expression {e} of type {type(e).__name__} is not supported")

    def _operator(self, e):
        name, args = e.name, e.args
        if name == "wsum":
            weights, terms = args
            return cpsolve.sum([int(w) * _num(self._expr(t)) for w, t in zip(weights, terms)])
        xs = [self._expr(a) for a in args]
        if name == "sum":
            return cpsolve.sum([_num(x) for x in xs])
        if name == "and":
            return cpsolve.forall([_cond(x) for x in xs])
        if name == "or":
            return cpsolve.exists([_cond(x) for x in xs])
        if name == "->":
            return _cond(xs[0]).implies(_cond(xs[1]))
        if name == "not":
            return ~_cond(xs[0])
        if name == "-":
            return -_num(xs[0])
        if name == "sub":
            return _num(xs[0]) - _num(xs[1])
        if name == "mul":
            return _num(xs[0]) * _num(xs[1])
        if name == "div":
            return cpsolve.div(_num(xs[0]), xs[1])
        if name == "mod":
            return cpsolve.mod(_num(xs[0]), xs[1])
        if name == "pow" and isinstance(xs[1], int) and xs[1] >= 1:
            out = _num(xs[0])
            for _ in range(xs[1] - 1):
                out = out * _num(xs[0])
            return out
        raise NotSupportedError(f"cpsolve: operator {name} is not supported")

    def _global(self, e):
        name = e.name
        xs = [self._expr(a) for a in e.args]
        if name == "alldifferent":
            return cpsolve.all_different(xs)
        if name == "allequal":
            return cpsolve.all_equal(xs)
        if name == "increasing":
            return cpsolve.increasing(xs)
        if name == "decreasing":
            return cpsolve.decreasing(xs)
        if name == "circuit":
            return cpsolve.circuit(xs)
        if name == "inverse":
            return cpsolve.inverse(xs[0], xs[1])
        if name == "table":
            return cpsolve.table(xs[0], [[int(v) for v in row] for row in e.args[1]])
        if name == "element":
            return cpsolve.element(xs[0], xs[1])
        if name == "min":
            return cpsolve.min(xs)
        if name == "max":
            return cpsolve.max(xs)
        if name == "abs":
            return abs(_num(xs[0]))
        if name == "count":
            return cpsolve.count(xs[0], xs[1])
        if name == "xor":
            return cpsolve.xorall([_cond(x) for x in xs[0]] if isinstance(xs[0], list) else [_cond(x) for x in xs])
        raise NotSupportedError(f"cpsolve: global {name} is not supported")

    def solve(self, time_limit=None, **kwargs):
        if time_limit is not None and time_limit < 0:
            raise ValueError(f"Time limit cannot be negative, but got {time_limit}")
        self.solver_vars(list(self.user_vars))
        start = time.time()
        r = self.native.solve(timeout=time_limit, **kwargs)
        self.cpm_status = SolverStatus(self.name)
        self.cpm_status.solve_time = time.time() - start
        self.cpm_status.exitstatus = {
            "optimal": ExitStatus.OPTIMAL,
            "solution": ExitStatus.OPTIMAL if self.has_objective() else ExitStatus.FEASIBLE,
            "unsat": ExitStatus.UNSATISFIABLE,
        }.get(r.status, ExitStatus.FEASIBLE if r.has_solution() else ExitStatus.UNKNOWN)
        has_sol = self._solve_return(self.cpm_status)
        self._fill(r if has_sol else None)
        if has_sol and self.has_objective():
            self.objective_value_ = r.objective
        return has_sol

    def _fill(self, r):
        for v in self.user_vars:
            if r is None:
                v._value = None
            else:
                value = r[self.solver_var(v)]
                v._value = bool(value) if isinstance(v, _BoolVarImpl) else value

    def solveAll(self, display=None, time_limit=None, solution_limit=None, call_from_model=False, **kwargs):
        if self.has_objective():
            raise NotSupportedError("cpsolve: solveAll lists the solutions of a model without an objective")
        self.solver_vars(list(self.user_vars))
        start = time.time()
        self.cpm_status = SolverStatus(self.name)
        count = 0
        stopped = False
        try:
            for s in self.native.solutions(limit=solution_limit, timeout=time_limit):
                self._fill(s)
                count += 1
                self.print_display(display)
        except cpsolve.Stopped:
            stopped = True
        self.cpm_status.solve_time = time.time() - start
        if count == 0:
            self.cpm_status.exitstatus = ExitStatus.UNKNOWN if stopped else ExitStatus.UNSATISFIABLE
        elif stopped or count == solution_limit:
            self.cpm_status.exitstatus = ExitStatus.FEASIBLE
        else:
            self.cpm_status.exitstatus = ExitStatus.OPTIMAL
        return count


def _num(x):
    """A cpsolve expression or integer (a Python bool counts 0/1)."""
    if isinstance(x, list):
        raise NotSupportedError("cpsolve: a list where a number is expected")
    return int(x) if isinstance(x, (bool, np.bool_)) else x


def _cond(x):
    """A condition: constants become the conditions 1 == 1 and 1 == 0."""
    if isinstance(x, (bool, int, np.integer, np.bool_)):
        return cpsolve.expressions.relation("==", 1, 1 if x else 0)
    return x

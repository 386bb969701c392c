"""cpsolve from Python: finite-domain constraint models, model files, explanations.

    import cpsolve
    m = cpsolve.Model()
    q = m.int_var(0, 7, shape=8, name="q")
    m += cpsolve.all_different(q)
    m += cpsolve.all_different([q[i] + i for i in range(8)])
    m += cpsolve.all_different([q[i] - i for i in range(8)])
    print(m.count())        # 92

The model is written in cpsolve's `.puz` language (``m.to_puz()``) and solved by the
workspace's own compiler and engine in-process (docs/python.md). Submodules:
``cpsolve.cpmpy`` (a CPMpy solver backend) and ``cpsolve.dask`` (split searches on a Dask
cluster).
"""

from .expressions import Expr, IntVar
from .globals import (
    abs,
    all_different,
    all_equal,
    among,
    bin_packing_load,
    circuit,
    count,
    cumulative,
    decreasing,
    diffn,
    disjunctive,
    div,
    element,
    exists,
    forall,
    global_cardinality,
    implies,
    increasing,
    inverse,
    lex_less,
    lex_lesseq,
    max,
    min,
    mod,
    nvalue,
    regular,
    subcircuit,
    sum,
    table,
    value_precede,
    xorall,
)
from . import globals as _globals
from .model import MAX_VARIABLES, Model, ModelError, Stopped, explain_file, solve_file
from .result import Result

__all__ = [
    "Expr",
    "IntVar",
    "MAX_VARIABLES",
    "Model",
    "ModelError",
    "Result",
    "Stopped",
    "explain_file",
    "solve_file",
    # The global constraints, as `globals` lists them.
    *_globals.__all__,
]

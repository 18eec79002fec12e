# C types for threats.py in the compiled build (see vigtavl_env/engine/state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState

@cython.locals(x=int)
cpdef bint guarded(set guard_cells, list cells, int extra_guard=*)
@cython.locals(q=int, exposed=double, d=int, a=int, h=int, w=int)
cpdef double seize_exposure(GameState state, object info, int cell, int owner, object threat, set guard_cells,
                            int extra_guard=*)

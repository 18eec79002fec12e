# C types for context.py in the compiled build (see vigtavl_env/engine/state.pxd): the
# per-decision context is a C type whose state is a GameState, so its methods read the state's
# tables as C arrays (their other attributes live in its __dict__).
from vigtavl_env.engine.state cimport GameState


cdef class Context:
    cdef public GameState state
    cdef public int me
    cdef dict __dict__

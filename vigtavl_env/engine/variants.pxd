# C types for variants.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState

@cython.locals(a=Activation)
cpdef int unit_status(GameState state, int u)
@cython.locals(status=int, carrier=int)
cpdef tuple variant_key(GameState state, int u)
@cython.locals(groups=dict, u=int)
cpdef list variant_classes(GameState state, object units)

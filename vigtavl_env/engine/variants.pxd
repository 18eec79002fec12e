# C types for variants.py in the compiled build (see state.pxd). Every function that calls a
# GameState method is declared here: Cython 3.3.0 crashes on such a call in an undeclared one.
cimport cython
from vigtavl_env.engine.state cimport GameState, in_activation

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int FREIGHTER, LOADED, SPENT


cpdef int unit_status(GameState state, int u)
@cython.locals(keys=list, v=int)
cpdef tuple cargo_key(GameState state, int freighter)
@cython.locals(status=int, carrier=int)
cpdef tuple variant_key(GameState state, int u)
@cython.locals(groups=dict, u=int)
cpdef list variant_classes(GameState state, object units)
@cython.locals(status=int, carrier=int, counts=list, v=int)
cpdef tuple variant_features(GameState state, int u)
@cython.locals(carrier=int, v=int)
cpdef str describe_variant(GameState state, int u)

# C types for agent.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int LOADED, ON_BOARD


@cython.locals(enemy=list, u=int)
cpdef tuple signature(GameState state, int me)

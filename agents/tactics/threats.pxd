# C types for threats.py in the compiled build (see vigtavl_env/engine/state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.free_actions cimport guard_cells
from vigtavl_env.engine.movement cimport has_development

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARCHER, BATTLE, FREIGHTER, LOADED, ON_BOARD


@cython.locals(x=int)
cpdef bint guarded(set guard_cells, list cells, int extra_guard=*)
@cython.locals(q=int, exposed=double, d=int, a=int, h=int, w=int)
cpdef double seize_exposure(GameState state, object info, int cell, int owner, object threat, set guard_cells,
                            int extra_guard=*)
@cython.locals(u=int, w=int, t=int)
cpdef list fighting_units(GameState state, int player)
@cython.locals(u=int)
cpdef tuple threat_key(GameState state, int player)
@cython.locals(c=int, o=int, u=int, t=int)
cpdef tuple _targets(GameState state, int me)

# C types for values.py in the compiled build (see vigtavl_env/engine/state.pxd): the bots ask
# these for every decision, and untyped they read the state's tables through a Python view per read.
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.state cimport count_of

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int BATTLE, NO_DEV, OVER, PLACEMENT, PRISONER


cpdef int dev_count(GameState state, int player)
@cython.locals(dev=int, owner=int, v=double, u=int)
cpdef double seize_value(GameState state, int me, int cell)
@cython.locals(rounds=int, p=int, now=int, first_battle=int, last=int, n=int, t=int)
cpdef int battle_turns_left(GameState state, int player)
@cython.locals(rounds=int, p=int, now=int, last=int, n=int, t=int)
cpdef int turns_left(GameState state, int player)

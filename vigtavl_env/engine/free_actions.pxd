# C types for free_actions.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.combat cimport can_stand
from vigtavl_env.engine.state cimport count_of, positions
from vigtavl_env.engine.tokens cimport check_complex, check_wall_awards

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int BREACHED, BREACH_HIT_MAX, CAVALRY, CHOOSE_RESCUE_SPOT, FREIGHTER, LOADED, NO_DEV, ON_BOARD, PRISONER
cdef int SPENT, SRC_CONQUER, SRC_RESCUE


@cython.locals(u=int)
cpdef list _seizing_units(GameState state, int player)
@cython.locals(u=int)
cpdef set seizer_cells(GameState state, int player)
@cython.locals(u=int, t=int, fighters=set, knights=set, out=tuple, memo=tuple)
cpdef tuple guard_cells(GameState state, int owner)
@cython.locals(owner=int, d=int, c=int, w=int, out=list)
cpdef list seize_sources(GameState state, int player, int target, tuple guards, set mine)
@cython.locals(f=int)
cpdef bint may_breach(GameState state, int u, set active)
cpdef bint breach(GameState state, int player, int unit, int edge)
cpdef tuple seize(GameState state, int player, int target)
cpdef list _rescue(GameState state, int player, int cell)
cpdef list seizers(GameState state, int player, int target)
cpdef list rescue_spots(GameState state, int u, int cell)
cpdef list dischargeable(GameState state, int player, int cell, int utype)
@cython.locals(g=int)
cpdef bint still_defended(GameState state, int target)
@cython.locals(owner=int, artillery_only=bint, u_where=cython.int[:], u_owner=cython.int[:], u_type=cython.int[:],
               out=list, h=int, u=int, t=int)
cpdef list guard_options(GameState state, int target, int origin)
cpdef list breachers(GameState state, int player, int cell)

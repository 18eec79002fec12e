# C types for building.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.movement cimport freighter_with_room
from vigtavl_env.engine.state cimport count_of, zero_flags

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARTILLERY_COST, ARTILLERY_LIMIT, ARTILLERY_OCCUPANCY, BATTLE, BUILD, CASTLE, GONE, MAX_OCCUPANCY
cdef int MOVE_IN_PROGRESS, NO_DEV, PRISONER, RESERVE, UNITS_PER_TURN, UNITS_PER_TURN_WITH_CASTLE, WALL_COST


cpdef bint may_build_now(GameState state)
@cython.locals(c=int)
cpdef int unit_capacity(GameState state, int player)
@cython.locals(n=int, u=int, w=int)
cpdef int in_play(GameState state, int player, int utype)
@cython.locals(limit=int)
cpdef bint type_limit_ok(GameState state, int player, int utype)
@cython.locals(c=int, d=int, n=int, near=bytearray)
cpdef list near_development(GameState state, int player)
@cython.locals(memo=tuple)
cpdef tuple near_sites(GameState state, int player)
@cython.locals(c=int)
cpdef tuple _near_sites(GameState state, int player)
@cython.locals(h=int)
cpdef bint free_for(GameState state, int cell, int player, int room)
@cython.locals(c=int)
cpdef list unit_sites(GameState state, int player, int utype, tuple near=*)
@cython.locals(d=int, n=int)
cpdef bint _adjacent_own_development(GameState state, int cell, int player)
@cython.locals(c=int)
cpdef list artillery_sites(GameState state, int player, tuple near=*)
@cython.locals(c=int, d=int, n=int, h=int, u=int, mark=bytearray)
cpdef list development_candidates(GameState state, int player, list presence=*, tuple near=*)
@cython.locals(c=int, d=int)
cpdef list wall_sites(GameState state, int player)
cpdef bint can_afford_unit(GameState state, int player, int utype, object capacity=*)
cpdef bint can_afford_development(GameState state, int player, int dev)
cpdef bint can_afford_wall(GameState state, int player)
@cython.locals(c=int)
cpdef list placement_sites(GameState state, int player)
@cython.locals(u=int)
cpdef list reserve_ships(GameState state, int player)
@cython.locals(room=int, c=int)
cpdef list development_sites(GameState state, int player, int dev, list candidates=*)

# C types for shared.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.building cimport (
    development_candidates, near_sites, unit_capacity, unit_sites, wall_sites)
from vigtavl_env.engine.free_actions cimport guard_cells, may_breach
from vigtavl_env.engine.state cimport deciding_player, in_activation, positions, zero_flags

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int LOADED, ON_BOARD, SPENT


cdef class Mine:
    cdef public list upright, land_cells, board_units, board_cells, cells
    cdef public int player
    cdef public unsigned long long stamp


cdef class Shared:
    cdef public GameState state
    cdef public int me, _capacity
    cdef public object _walls, _own_walls, _land, _ships, _mine, _dev_candidates, _breaches, _near

    cpdef tuple near(self)
    cpdef Mine mine(self)
    @cython.locals(e=int, cell=int, direction=int, state=GameState, me=int, memo=tuple)
    cpdef list own_walls(self)
    cpdef tuple guards(self, int player)
    @cython.locals(c=int, k=int, w=int, facing=int, me=int, state=GameState, mine=Mine, active=set)
    cpdef list breaches(self)
    cpdef list walls(self)
    cpdef int capacity(self)
    cpdef list dev_candidates(self)
    cpdef list unit_sites(self, int utype)


@cython.locals(u=int)
cpdef bint _may_breach_from(GameState state, list units, int cell, set active)
@cython.locals(mine=Mine)
cpdef Mine kept_mine(GameState state, int me)
@cython.locals(u=int, w=int, t=int, c=int, m=int, cells=list, board_cells=list, board_units=list,
               upright=list, land_cells=list, marks=bytearray)
cpdef _scan_units(Mine mine, GameState state, int me)
@cython.locals(m=Py_ssize_t, k=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, x=int, y=int)
cpdef list sorted_once(list cells)

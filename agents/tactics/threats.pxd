# C types for threats.py in the compiled build (see vigtavl_env/engine/state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
from agents.tactics.maps cimport MapInfo
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.free_actions cimport guard_cells
from vigtavl_env.engine.movement cimport has_development
from agents.tactics.values cimport battle_turns_left
from agents.tactics.odds cimport ranged_hit_prob

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARCHER, BATTLE, FREIGHTER, INF, LOADED, ON_BOARD
# This module's own: the length of a risk row, CLOSE_WIN flat and its row (nothing imports them).
cdef int _N_DIST, _CLOSE_ROW
cdef double[:] _CLOSE_WIN_FLAT


cdef class Threats:
    cdef public int player
    cdef public bytearray close, stand
    cdef public object ranged
    cdef double[:] _ranged  # ranged, as a C array
    cdef public bint can_capture

    @cython.locals(p=double, d=int, q=double)
    cpdef double attack_prob(self, int cost, int cell, bint is_ship)


@cython.locals(k=int, x=int)
cpdef bint guarded_beside(GameState state, set guard_cells, int cell, int d, int extra_guard=*)
@cython.locals(q=int, exposed=double, d=int, a=int, h=int, w=int)
cpdef double seize_exposure(GameState state, MapInfo info, int cell, int owner, Threats threat, set guard_cells,
                            int extra_guard=*)
@cython.locals(u=int)
cpdef tuple threat_key(GameState state, int player)
@cython.locals(c=int, o=int, u=int, t=int)
cpdef tuple _targets(GameState state, int me)
@cython.locals(n=int, u=int, w=int, t=int, base=int, m=int, kind=int, x=int, c=int, d=int, k=int, cost=int,
               p=double, stand=cython.uchar[:], reach=cython.uchar[:], dist=cython.int[:], nb=cython.int[:],
               rays=cython.int[:], ranged=cython.double[:], ranged_p=cython.double[:], close=bytearray,
               stand_out=bytearray)
cpdef tuple threat_tables(GameState state, MapInfo info, int player)
@cython.locals(n=int, c=int, k=int, cells=cython.int[:], value=cython.double[:], land=cython.float[:],
               sea=cython.float[:], land_den=cython.double[:], sea_den=cython.double[:], ld=cython.int[:],
               sa=cython.int[:], land64=cython.double[:], sea64=cython.double[:])
cpdef tuple target_field(GameState state, MapInfo info, int me)
@cython.locals(i=int, best=double, v=double)
cdef double _best_pull(double[:] value, int[:] cells, int k, double[:] den, int[:] dist, int row)
@cython.locals(n=int, q=int, u=int, w=int, t=int, off=int, base=int, c=int, r=double,
               risk=cython.double[:], out=cython.double[:], dist=cython.int[:])
cpdef object approach_risk(GameState state, MapInfo info, int me)
cpdef int _hex_row(int cell, int n)
@cython.locals(w=int)
cpdef bint _fights(GameState state, int u, int player)

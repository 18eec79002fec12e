# C types for movement.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState


# the stats of stats.py and the phase of state.py, as C ints here (imported by name in movement.py)
cdef int ARTILLERY_OCCUPANCY, FREIGHTER, FREIGHTER_CAPACITY, MAX_OCCUPANCY, BATTLE


cdef class Reach:
    cdef public int[:] tables
    cdef public int n, count
    cdef object _cost, _stops, _battles, _windy
    cpdef reached(self, int c, int cost, int bits)
    cpdef int cost_of(self, int c)
    cpdef bint is_stop(self, int c)
    cpdef bint is_battle(self, int c)
    cpdef bint is_windy(self, int c)
    cpdef int order_at(self, int i)
    @cython.locals(c=int, out=list, t=cython.int[:], n=int)
    cpdef list destinations(self, int bits)
    @cython.locals(i=int, c=int, out=list, t=cython.int[:], n=int)
    cpdef list in_order(self, int bits)
    @cython.locals(i=int, c=int, out=dict, t=cython.int[:], n=int)
    cpdef dict _dict(self, int bits)


@cython.locals(u=int)
cpdef int freighter_with_room(GameState state, int cell, int player)

@cython.locals(me=int, ship=bint, start=int, battle_phase=bint, need=int, walls=cython.int[:],
               holder=cython.int[:], occ=cython.int[:], art_owner=cython.int[:], own_terrain=cython.int[:],
               nbr=cython.int[:], nbr_edge=cython.int[:], res=Reach, t=cython.int[:], n=int,
               qs=int, f0=int, f1=int, ls=int, n_later=int, nxt=int, i=int, cost=int, a=int, b=int, d=int, e=int,
               w=int, h=int, stop=int, windy=int)
cpdef Reach reach(GameState state, int u, int points, bint towing=*, bint can_attack=*, bint wind=*)

@cython.locals(land=int, h=int, stop=int)
cpdef bint _enter(GameState state, Reach res, int b, int cost, int me, bint ship, int need,
                  bint towing, bint battle_phase, bint can_attack)

@cython.locals(v=int)
cpdef bint _has_defenders(GameState state, int cell, int owner)

@cython.locals(c=int)
cpdef bint has_development(GameState state, int player)

# C types for state.py in the compiled build (Cython reads this file beside state.py; plain
# Python never sees it). GameState's tables are typed memoryviews: indexing them in a module
# that cimports GameState is a C array access.
cimport cython

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARTILLERY_OCCUPANCY, FREIGHTER, NO_DEV


cdef unsigned long long _last_stamp
cpdef unsigned long long new_stamp()
cdef bytearray _ZERO_BYTE
cpdef bytearray zero_flags(int n)
cpdef list positions(int[:] values, int x)
cpdef int count_of(int[:] values, int x)
cpdef int unit_tables_at(int n_cells, int n_edges)


cdef class Activation:
    cdef public int unit, move, move_left, origin
    cdef public bint attacked, rode, done
    cdef public list losers
    @cython.locals(a=Activation)
    cpdef Activation copy(self)


cdef class Pending:
    cdef public int kind, player, unit, cell, origin, reach, extra
    cdef public bint artillery
    cdef public object parent
    cpdef Pending copy(self)


cdef class GameState:
    cdef public object gmap, config, buf
    cdef public int n_players, n_cells, n_edges, n_units, unit_room
    cdef public int phase, round, turn_player, turns_played, wind
    cdef public long long decisions
    cdef public int[:] dev_type, dev_owner, art_owner, occ, cell_player, dev_builder
    cdef public int[:] walls, wall_builder
    cdef public int[:] u_owner, u_type, u_cell, u_where, u_carrier, u_holder, u_flags
    cdef public int[:] nbr, nbr_edge, sea, land
    cdef public list gold, silver, tokens, awards, sunk, to_load, built_types, token_src, asks
    cdef public int built_units, recruit_type, retaliator, occupy_unit, occupy_cell
    cdef public object wall_in_hand, wall_relocated, discharged, retaliation_used, ending_turn
    cdef public dict front, attacks, breaches, defended
    cdef public set seized_this_turn
    cdef public list stack, pending_retaliation, forced_dice, events
    cdef public object pending
    cdef public unsigned long long rng
    cdef public bint record_events
    cdef public unsigned long long unit_stamp, dev_stamp, wall_stamp
    cdef public list near_memo, walls_memo, guards_memo
    cdef public object mine_memo, reach_memo
    cdef dict __dict__

    @cython.locals(whole=cython.int[:])
    cpdef _views(self)
    @cython.locals(whole=cython.int[:], room=int, k=int, u=int)
    cpdef _unit_views(self)
    @cython.locals(flat=cython.int[:])
    cpdef _map_views(self)
    @cython.locals(new=GameState)
    cpdef GameState clone(self, bint keep_events=*)
    cpdef list units_at(self, int cell, int owner=*, int where=*)
    cpdef list cargo(self, int freighter)
    cpdef touch(self)
    cpdef mark_units(self)
    cpdef mark_walls(self)
    cpdef mark_developments(self)
    cpdef put(self, int u, int cell)
    cpdef lift(self, int u)
    cpdef move_unit(self, int u, int cell)
    cpdef load(self, int u, int freighter)
    cpdef remove(self, int u)
    cpdef earn(self, int player, int source, int n)
    cpdef emit(self, str kind, dict data)
    cpdef set_development(self, int cell, int dev, int owner)
    cpdef set_artillery(self, int cell, int owner)
    cpdef _refresh_holder(self, int cell)
    @cython.locals(z=cython.ulonglong)
    cpdef int roll(self)


cpdef Activation active_of(GameState state)
cpdef int deciding_player(GameState state)
@cython.locals(a=Activation)
cpdef bint in_activation(GameState state, int u)

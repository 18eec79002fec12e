# C types for combat.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.movement cimport reach
from vigtavl_env.engine.state cimport positions

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARCHER, ARTILLERY_COST, BATTLE, CHOOSE_DEFENDER, CHOOSE_PRISON, CHOOSE_VARIANT, FREIGHTER, LOADED
cdef int MAX_OCCUPANCY, ON_BOARD, PRISONER, SRC_BATTLE
cdef int STOP


@cython.locals(u=int, best=int)
cpdef int defender_at(GameState state, int cell)
@cython.locals(c=int)
cpdef bint can_capture(GameState state, int player)
@cython.locals(h=int, d=int)
cpdef bint may_target(GameState state, int player, int cell)
@cython.locals(me=int, a=int, d=int, b=int, w=int, out=list)
cpdef list close_targets(GameState state, int u)
@cython.locals(h=int, v=int)
cpdef bint hex_cleared(GameState state, int cell, int player)
@cython.locals(ship=bint, h=int)
cpdef bint can_stand(GameState state, int u, int cell)
@cython.locals(ship=bint)
cpdef bint can_occupy(GameState state, int u, int cell)
@cython.locals(owner=int, touching=bint, d=int, n=int, v=int, saved_phase=int, units=list)
cpdef bint surrounded(GameState state, int cell, int by)
@cython.locals(n=int, h=int, v=int, victor=int, units=list)
cpdef check_surrender(GameState state, int player)
cpdef defeat(GameState state, int u, int victor, int at, bint pays=*)
cpdef int attack_dice(GameState state, int base, int target, int from_dir, bint ranged)
cpdef tuple close_combat(GameState state, int attack, int defend)
cpdef tuple ranged_hit(GameState state, int dice, int reach)
cpdef list prison_options(GameState state, int player, int cell)
cpdef int direction_from(GameState state, int target, int origin)
@cython.locals(d=int, n=int)
cpdef bint _all_around_held(GameState state, int cell)
@cython.locals(d=int, n=int)
cpdef bint _touches(GameState state, int cell, int player)
@cython.locals(v=int)
cpdef bint _any_knight(GameState state, list units)
cpdef bint coastal_or_sea(GameState state, int cell)
@cython.locals(t=int)
cpdef bint can_attack_from_here(GameState state, int u)
@cython.locals(owner=int, u_where=cython.int[:], u_owner=cython.int[:], u_type=cython.int[:], u_cell=cython.int[:],
               nbr=cython.int[:], beside1=int, beside2=int, d=int, k=int, h=int, on_hex=list, near=list, warship=bint,
               strongest=int, u=int, c=int, room=int, kinds=int, keys=list, t=int)
cpdef list defender_options(GameState state, int cell, int origin, int attacker)
@cython.locals(out=dict, d=int, k=int, cell=int, edge=int, w=int)
cpdef dict ranged_targets(GameState state, int player, int origin)
@cython.locals(owner=int, p=int, count=list, d=int, n=int, best=int, best_n=int, k=int, q=int)
cpdef int ring_holder(GameState state, int cell)
@cython.locals(flank=int, attrition=int)
cpdef int preview_attack_dice(GameState state, int base, int target, int from_dir, bint ranged)
@cython.locals(flank=int, attrition=int)
cpdef tuple tactics_dice(GameState state, int target, int from_dir, bint ranged)

# C types for legal.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState, Pending, active_of, deciding_player
from vigtavl_env.engine.shared cimport Shared, Mine, sorted_once
from vigtavl_env.engine.movement cimport Reach
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.building cimport (
    artillery_sites, can_afford_development, can_afford_unit, can_afford_wall, development_sites,
    may_build_now, placement_sites, reserve_ships)
from vigtavl_env.engine.combat cimport (
    can_attack_from_here, can_occupy, close_targets, coastal_or_sea, defender_options, prison_options,
    ranged_targets)
from vigtavl_env.engine.free_actions cimport (
    breachers, dischargeable, guard_options, rescue_spots, seize_sources, seizers)
from vigtavl_env.engine.movement cimport reach
from vigtavl_env.engine.variants cimport variant_classes

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARTILLERY_SLOT, BATTLE, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_PRISON
cdef int CHOOSE_RESCUE_SPOT, CHOOSE_SIDE, CHOOSE_VARIANT, FREIGHTER, FREIGHTER_CAPACITY, LOADED, MOVE_DONE
cdef int ON_BOARD, OVER, PLACEMENT, RESERVE, SPENT


# the verb codes of actions.py, as C ints here (imported by name in legal.py)
cdef int ACTIVATE, ATTACK, ATTACK_FROM, BREACH, BUILD_ARTILLERY, BUILD_DEV, BUILD_UNIT, BUILD_WALL
cdef int CHOOSE, DISCHARGE, END_ACTIVATION, END_TURN, FIRE_ARTILLERY, LOAD, MOVE, MOVE_ARTILLERY
cdef int NO_DEFENCE, N_HEX_VERBS, OCCUPY, PLACE, RECRUIT, RELOCATE_WALL, SEIZE, SHOOT
cdef int HOLD_PRISONER, PLACE_RESCUED, VARIANT
cdef int BATTLE_HEX, STOP

@cython.locals(pend=Pending, top=Activation)
cpdef tuple open_verbs(GameState state)
@cython.locals(top=Activation)
cpdef list _unit_verbs(GameState state)
@cython.locals(n=int, shared=Shared, out=list, v=int, start=int, w=int, base=int, c=int,
               opened="unsigned long long", hexes=list, g=int, verbs=list, glob=list, codes=tuple)
cpdef list legal_codes(GameState state)
cdef unsigned long long _BIT
cpdef int _span_start(int verb)
cpdef list _span_hexes(GameState state, int start, Shared sh)
cpdef list _verb_hexes(GameState state, int verb, Shared sh)
cpdef list _all_placements(GameState state, Shared sh)
cpdef list _h_build_unit(GameState state, int verb, Shared sh)
cpdef list _h_build_artillery(GameState state, int verb, Shared sh)
cpdef list _h_build_dev(GameState state, int verb, Shared sh)
cpdef list _all_walls(GameState state, Shared sh)
@cython.locals(u=int)
cpdef list _h_occupy(GameState state, int verb, Shared sh)
@cython.locals(top=Activation, pend=Pending, r=Reach)
cpdef list _h_attack_from(GameState state, int verb, Shared sh)
@cython.locals(u=int, out=list)
cpdef list _all_choices(GameState state, Shared sh)
cpdef list pending_units(GameState state, object pend=*)
@cython.locals(top=Activation, t=int, u=int, out=list)
cpdef list decision_units(GameState state, int player, int verb, int cell, object parent=*)
@cython.locals(u=int, out=list)
cpdef list freighters_with_room(GameState state, int cell, int player)
@cython.locals(u=int, me=int, start=int, ship=bint, d=int, n=int, w=int)
cpdef list battle_sides(GameState state, Activation top, Reach r, int cell)
cpdef bint still_on_board(GameState state, int u)
cpdef bint activation_spent(GameState state, Activation top)
@cython.locals(v=int, out=list)
cpdef list _all_builds(GameState state, Shared sh)
@cython.locals(top=Activation, t=int)
cpdef list _all_activations(GameState state, Shared sh)
@cython.locals(t_active=int)
cpdef bint _nesting_open(GameState state, Activation top)
@cython.locals(c=int)
cpdef list _dischargeable_hexes(GameState state, int me, int utype, Shared sh)
@cython.locals(d=int, n=int)
cpdef bint _frees_a_site(GameState state, int me, int cell)
@cython.locals(top=Activation, u=int, upright=list, cells=list)
cpdef list _activatable(GameState state, int me, int utype, Shared sh)
cpdef bint nested_ok(GameState state, int active, int u)
@cython.locals(d=int)
cpdef bint _adjacent(GameState state, int a, int b)
cpdef bint may_battle_move(GameState state, Activation top)
@cython.locals(top=Activation, u=int, me=int, cell=int, r=Reach)
cpdef list _unit_action_hexes(GameState state, int verb)
@cython.locals(key=tuple, memo=tuple, r=Reach)
cpdef Reach active_reach(GameState state, Activation top)
cpdef list variant_options(GameState state)
@cython.locals(c=int, d=int, n=int, candidates=set, mine=set)
cpdef list _seizable(GameState state, int me, Shared sh)

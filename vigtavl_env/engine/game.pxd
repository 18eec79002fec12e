# C types for game.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState, Pending, active_of
from vigtavl_env.engine.movement cimport Reach
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.combat cimport (
    can_occupy, can_stand, check_surrender, defender_options, ranged_targets, tactics_dice)
from vigtavl_env.engine.free_actions cimport breachers, guard_options
from vigtavl_env.engine.legal cimport (
    activation_spent, active_reach, battle_sides, decision_units, legal_codes, open_verbs,
    still_on_board)
from vigtavl_env.engine.movement cimport freighter_with_room, reach
from vigtavl_env.engine.actions cimport as_code, decode
from vigtavl_env.engine.tokens cimport check_wall_awards
from vigtavl_env.engine.variants cimport describe_variant, variant_classes

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARTILLERY_COST, ARTILLERY_SLOT, BATTLE, BUILD, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD
cdef int CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_SEIZER, CHOOSE_SIDE, CHOOSE_VARIANT, FREIGHTER, LOADED
cdef int MOVE_DONE, MOVE_IN_PROGRESS, MOVE_UNUSED, ON_BOARD, OVER, PRISONER, RESERVE, SPENT, WALL_COST


# the verb codes of actions.py, as C ints here (imported by name in game.py)
cdef int ACTIVATE, ATTACK, ATTACK_FROM, BREACH, BUILD_ARTILLERY, BUILD_DEV, BUILD_UNIT, BUILD_WALL
cdef int CHOOSE, DISCHARGE, END_ACTIVATION, END_TURN, FIRE_ARTILLERY, LOAD, MOVE, MOVE_ARTILLERY
cdef int NO_DEFENCE, N_HEX_VERBS, OCCUPY, PLACE, RECRUIT, RELOCATE_WALL, SEIZE, SHOOT
cdef int HOLD_PRISONER, PLACE_RESCUED, VARIANT

cpdef list legal_actions(GameState state)
@cython.locals(n=int, verb=int, cell=int, g=int)
cpdef apply_action(GameState state, object code, object legal=*)
@cython.locals(lo=Py_ssize_t, hi=Py_ssize_t, mid=Py_ssize_t)
cpdef bint _listed(long code, object legal)
cpdef bint _own_occupy_chance(GameState state)
cpdef int _handler_key(int verb)
cpdef place_ship(GameState state, int verb, int cell)
@cython.locals(u=int)
cpdef int _first_in_reserve(GameState state, int player, int utype)
@cython.locals(p=int, k=int, q=int, t=int)
cpdef _next_placement(GameState state)
@cython.locals(utype=int, freighter=int)
cpdef build_unit(GameState state, int verb, int cell)
cpdef int _place_new_unit(GameState state, int me, int utype, int cell, int freighter)
@cython.locals(me=int)
cpdef build_artillery(GameState state, int verb, int cell)
@cython.locals(me=int, dev=int)
cpdef build_development(GameState state, int verb, int cell)
@cython.locals(me=int, d=int, edge=int, other=int)
cpdef build_wall(GameState state, int verb, int cell)
@cython.locals(d=int, edge=int)
cpdef relocate_wall(GameState state, int verb, int cell)
@cython.locals(u=int)
cpdef activate(GameState state, int verb, int cell)
@cython.locals(top=Activation, u=int, r=Reach, sides=list, freighter=int)
cpdef move(GameState state, int verb, int cell)
@cython.locals(top=Activation, u=int, cost=int, start=int, embarked=bint, keeps_moving=bint)
cpdef _move_to(GameState state, int cell, int freighter, Reach r=*)
cpdef _relocate(GameState state, int u, int cell, int freighter=*)
@cython.locals(top=Activation)
cpdef _after_unit_action(GameState state)
@cython.locals(rec=Activation, p=int)
cpdef end_activation(GameState state)
cpdef end_turn(GameState state)
@cython.locals(p=int)
cpdef _next_retaliation(GameState state)
@cython.locals(p=int)
cpdef _finish_retaliation(GameState state)
@cython.locals(p=int)
cpdef _start_turn(GameState state)
@cython.locals(p=int, u=int, u_flags=cython.int[:])
cpdef _finish_turn(GameState state)

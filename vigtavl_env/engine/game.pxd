# C types for game.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState, Pending, active_of, deciding_player
from vigtavl_env.engine.movement cimport Reach
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.combat cimport (
    attack_dice, can_occupy, can_stand, check_surrender, close_combat, defeat, defender_options,
    direction_from, prison_options, ranged_hit, ranged_targets, tactics_dice)
from vigtavl_env.engine.free_actions cimport breach, breachers, guard_options, rescue_spots, seize, seizers
from vigtavl_env.engine.legal cimport (
    activation_spent, active_reach, battle_sides, decision_units, legal_codes, open_verbs,
    still_on_board, variant_options)
from vigtavl_env.engine.movement cimport freighter_with_room, reach
from vigtavl_env.engine.actions cimport as_code, decode
from vigtavl_env.engine.tokens cimport check_complex, check_wall_awards
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
cpdef bint _listed(long code, object legal)
@cython.locals(lo=Py_ssize_t, hi=Py_ssize_t, mid=Py_ssize_t, x="long long")
cpdef bint _in_ascending(long long code, list legal) except? -1
cpdef bint _own_occupy_chance(GameState state)
cdef bytes _HANDLER_START
@cython.locals(k=int)
cpdef _handle(GameState state, int verb, int cell)
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
@cython.locals(me=int, utype=int)
cpdef _activate_unit(GameState state, int u, int cell)
cpdef _place_unit(GameState state, int u, int cell)
cpdef _build_unit_onto(GameState state, int utype, int cell, int freighter)
cpdef move_with_artillery(GameState state, int verb, int cell)
cpdef _battle_move(GameState state, Activation top, int cell, int side, int cost)
cpdef _declare_battle(GameState state, int u, int cell, int origin, int reach, bint artillery, bint battle_move=*)
cpdef _resolve_battle(GameState state, int u, int cell, int origin, int reach, bint artillery, bint battle_move,
                      int defender)
cpdef bint _battle(GameState state, int u, int cell, int from_dir, int ranged_range, bint artillery, int victim)
cpdef occupy(GameState state, int verb, int cell)
cpdef _seize_with(GameState state, int u, int cell)
cpdef no_defence(GameState state)
cpdef _answer_choice(GameState state, Pending pend, int cell, int unit)
cpdef defend_piece(GameState state, Pending pend, int guard)
cpdef hold_prisoner(GameState state, int verb, int cell)
cpdef _stand_rescued(GameState state, int u, int cell, int player)
cpdef _discharge_unit(GameState state, int u, int cell)
cpdef _recruit_onto(GameState state, int cell, int freighter)
cpdef load_freighters(GameState state, int g)
cpdef int _pick(GameState state, int verb, int cell, Pending parent=*)
cpdef choose_variant(GameState state, int k)
cpdef bint _onto_freighter(GameState state, int utype, int cell)
cpdef attack_from(GameState state, int verb, int cell)
cpdef attack(GameState state, int verb, int cell)
cpdef shoot(GameState state, int verb, int cell)
cpdef fire_artillery(GameState state, int verb, int cell)
cpdef _ranged_attack(GameState state, int cell, bint artillery)
cpdef _end_movement(Activation top)
cpdef _lost_to_active(GameState state, int loser)
cpdef _take_pieces(GameState state, int me, int cell)
cpdef seize_hex(GameState state, int verb, int cell)
cpdef _seize_now(GameState state, int u, int cell)
cpdef choose(GameState state, int verb, int cell)
cpdef place_rescued(GameState state, int verb, int cell)
cpdef _next_ask(GameState state)
cpdef breach_wall(GameState state, int verb, int cell)
cpdef discharge(GameState state, int verb, int cell)
cpdef recruit(GameState state, int verb, int cell)
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

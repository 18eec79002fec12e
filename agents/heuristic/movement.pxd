# C types for movement.py in the compiled build (see context.pxd): the scorers take the context
# as its C type and read the state's tables as C arrays.
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState
from vigtavl_env.engine.movement cimport Reach
from agents.heuristic.context cimport Context
from agents.heuristic.attacks cimport defence, gain_this_turn, target_value
from agents.heuristic.seizures cimport seize_from
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.combat cimport can_attack_from_here
from vigtavl_env.engine.legal cimport active_reach, battle_sides, nested_ok
from vigtavl_env.engine.movement cimport reach

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ACTIVATE, ARCHER, BATTLE_HEX, FREIGHTER, LOADED, ON_BOARD, SPENT, STOP


@cython.locals(st=GameState, me=int, v=double, best=double, k=int, t=int, d=int, y=int, ashore=double)
cpdef double _freighter_lasting_value(Context ctx, list cargo, int c)
@cython.locals(v=double)
cpdef double _value_at(Context ctx, int u, int t, int c, bint loaded, bint attack_left)
@cython.locals(r=Reach)
cpdef Reach _reach_of(Context ctx, int u, int move_left, bint can_attack, bint wind=*)
@cython.locals(t=int, cost=int, victim=int, p=double, ev=double)
cpdef double _battle_move_value(Context ctx, int u, int x, int side, double stay)
@cython.locals(top=Activation, best=double, v=double, i=int, s=int)
cpdef double _best_battle_move(Context ctx, int u, int x, Reach r, int move_left, double stay)
@cython.locals(st=GameState, top=Activation, u=int, t=int, loaded=bint, here=int, attack_left=bint, now=double,
               h=int, r=Reach, to_loaded=bint, after=double)
cpdef double score_move(Context ctx, int verb, int cell)
@cython.locals(st=GameState, top=Activation, u=int, stay=double, r=Reach)
cpdef double score_attack_from(Context ctx, int verb, int cell)
cpdef double score_end_activation(Context ctx, int verb, int cell)
cpdef double score_end_turn(Context ctx, int verb, int cell)
@cython.locals(top=Activation, u=int)
cpdef int _activation_unit(GameState st, int me, int utype, int cell)
@cython.locals(st=GameState, t=int, u=int, loaded=bint, cost=int, gain=double)
cpdef double score_activate(Context ctx, int verb, int cell)
@cython.locals(st=GameState, attack_left=bint, stay=double, best=double, r=Reach, land_unit=bint, best_stop=double,
               c=int, to_loaded=bint, v=double, a=double, targets=dict)
cpdef double _unit_plan(Context ctx, int u, int t, int cell, bint loaded)
@cython.locals(st=GameState, cargo=list, now=double, r=Reach, best=double, c=int, v=double)
cpdef double _freighter_plan(Context ctx, int f)

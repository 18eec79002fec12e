# C types for attacks.py in the compiled build (see context.pxd): the attack values are C
# functions of the context, called as C functions by the movement and building scorers.
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState
from agents.heuristic.context cimport Context, seize_tokens, unit_place_memo
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.combat cimport coastal_or_sea, defender_options
from vigtavl_env.engine.free_actions cimport breachers
from vigtavl_env.engine.state cimport active_of
from agents.tactics.odds cimport attack_dice_from, choose_defender
from agents.heuristic.seizures cimport seize_from

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARCHER, ARTILLERY_COST, ATTACK, BREACH, FIRE_ARTILLERY, FREIGHTER, MOVE_DONE, NO_DEV, ON_BOARD, SPENT
# This module's own: UNIT_COST as bytes (nothing imports it).
cdef bytes _COST


@cython.locals(key=int, known=double, v=double)
cpdef double gain_this_turn(Context ctx, int t, int c, bint loaded=*)
@cython.locals(target_at=cython.int[:], st=GameState, me=int, cost=int, best=double, d=int, k=int, i=int, x=int,
               w=int, v=double, rays=cython.int[:], crossed=cython.int[:])
cpdef double best_attack(Context ctx, int t, int c, bint loaded=*)
@cython.locals(st=GameState, key=object)
cpdef tuple defence(Context ctx, int x, int base, int origin, int reach)
@cython.locals(victim=int, p=double, v=double, d=int)
cpdef double target_value(Context ctx, int x, int base, int origin, int reach)
@cython.locals(key=object, known=object, st=GameState, silver=int, cost_v=int, best=double, cost=int, gap=int,
               gain=double, d=int, v=double)
cpdef double feint_bonus(Context ctx, int x, int victim, int front, int spent)
@cython.locals(st=GameState, me=int, top=Activation, active=int, out=list, u=int, t=int, m=int, here=int, d=int,
               y=int, dirs=list)
cpdef list followers(Context ctx, int x)
@cython.locals(key=int, known=object, st=GameState, vt=int, v=double, cargo=int, k=int, standing=int, u=int)
cpdef double victim_value(Context ctx, int victim, int x)
@cython.locals(st=GameState, top=Activation, u=int, t=int, loaded=bint, here=int, ranged=bint, reach=int, base=int,
               victim=int, p=double, ev=double, bonus=double)
cpdef double score_attack(Context ctx, int verb, int cell)
@cython.locals(st=GameState, x=int, owner=int, value=double, most=int, b=int)
cpdef double score_breach(Context ctx, int verb, int cell)

# C types for attacks.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState
from agents.heuristic.context cimport Context
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.free_actions cimport breachers

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARTILLERY_COST, ATTACK, BREACH, FIRE_ARTILLERY, MOVE_DONE


@cython.locals(st=GameState, top=Activation, u=int, t=int, loaded=bint, here=int, ranged=bint, reach=int, base=int,
               victim=int, p=double, ev=double, bonus=double)
cpdef double score_attack(Context ctx, int verb, int cell)
@cython.locals(st=GameState, x=int, owner=int, value=double, most=int, b=int)
cpdef double score_breach(Context ctx, int verb, int cell)

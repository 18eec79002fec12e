# C types for attacks.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState
from agents.heuristic.context cimport Context

@cython.locals(st=GameState, top=Activation, u=int, t=int, loaded=bint, here=int, ranged=bint, reach=int, base=int,
               victim=int, p=double, ev=double, bonus=double)
cpdef double score_attack(Context ctx, int verb, int cell)
@cython.locals(st=GameState, x=int, owner=int, value=double, most=int, b=int)
cpdef double score_breach(Context ctx, int verb, int cell)

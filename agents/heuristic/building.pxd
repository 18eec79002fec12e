# C types for building.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
from agents.heuristic.context cimport Context
from agents.heuristic.attacks cimport gain_this_turn
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.tokens cimport may_close_enclosure

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int BUILD_DEV, BUILD_UNIT, BUILD_WALL, CAMP, CASTLE, CITADEL, COMPLEX, DISCHARGE, FORT, GREAT_WALL
cdef int LAST_DEVELOPMENT_BONUS, NO_DEV


@cython.locals(st=GameState, me=int, need1=int, need2=int, has1=bint, has2=bint, d=int, k=int, x=int, y=int,
               other=int, missing=int, room=int, price=int, awards=int)
cpdef double _complex_bonus(Context ctx, int dev, int cell)
@cython.locals(st=GameState, dev=int, v=double, castle=bint, coast=bint, c=int, worth=double, price=int)
cpdef double score_build_dev(Context ctx, int verb, int cell)
@cython.locals(st=GameState, t=int, loaded=bint, now=double, v=double, pref=double, cost=int)
cpdef double score_build_unit(Context ctx, int verb, int cell)
@cython.locals(st=GameState, me=int, d=int, edge=int, other=int, v=double, mine=bint, joins=bint, length=int,
               a=int, b=int, awards=int)
cpdef double score_build_wall(Context ctx, int verb, int cell)
@cython.locals(st=GameState, price=int)
cpdef double _cover(Context ctx, int a, int b)
@cython.locals(total=int, s0=int, closed=bint, a=int, d=int, b=int, e=int)
cpdef int _enclosed_by(GameState st, int me, int edge, int cap=*)
@cython.locals(st=GameState, t=int, here=double, best=double, c=int)
cpdef double score_discharge(Context ctx, int verb, int cell)
@cython.locals(st=GameState, t=int, loaded=bint)
cpdef double score_recruit(Context ctx, int verb, int cell)

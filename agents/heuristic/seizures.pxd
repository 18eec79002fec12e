# C types for seizures.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
from agents.heuristic.context cimport Context, seize_tokens
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.free_actions cimport guard_options, seizers
from vigtavl_env.engine.legal cimport pending_units
from agents.tactics.odds cimport loss_prob, stake_value
from agents.tactics.threats cimport guarded_beside
from agents.tactics.values cimport seize_value

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int CHOOSE, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, MAX_OCCUPANCY, NO_DEV, ON_BOARD


@cython.locals(st=GameState, me=int, total=double, d=int, x=int, owner=int, w=int, g=set)
cpdef double seize_from(Context ctx, int a)
@cython.locals(st=GameState, u=int, t=int, here=int, gain=double)
cpdef double score_occupy(Context ctx, int verb, int cell)
@cython.locals(st=GameState, t=int, h=int, artillery_only=bint, stake=double, p_seized=double, tokens=double,
               v=double)
cpdef double _seizer_value(Context ctx, int s, int cell)
@cython.locals(st=GameState)
cpdef double _piece_stake(Context ctx, int cell, int seizer_owner)
cpdef double score_no_defence(Context ctx, int verb, int cell)
@cython.locals(st=GameState)
cpdef double score_place_rescued(Context ctx, int verb, int cell)

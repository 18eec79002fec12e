# C types for agent.py in the compiled build (see context.pxd): the legal codes are scored in
# one typed loop that calls each group's scorer as a C function.
cimport cython
from vigtavl_env.engine.state cimport GameState
from agents.heuristic.context cimport Context
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.state cimport active_of
from agents.heuristic.attacks cimport score_attack, score_breach
from agents.heuristic.building cimport (score_build_dev, score_build_unit, score_build_wall, score_discharge,
                                        score_recruit)
from agents.heuristic.movement cimport (score_activate, score_attack_from, score_end_activation, score_end_turn,
                                        score_move)
from agents.heuristic.placement cimport score_place
from agents.heuristic.seizures cimport score_no_defence, score_occupy, score_place_rescued

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int LOADED, N_HEX_VERBS, ON_BOARD, SEIZE

# This module's scorer numbers and tables (private: nothing imports them).
cdef int _PLACE, _BUILD_UNIT, _BUILD_DEV, _BUILD_WALL, _NEVER, _BREACH, _ACTIVATE, _MOVE, _ATTACK, _OCCUPY, _SEIZE
cdef int _DISCHARGE, _RECRUIT, _ATTACK_FROM, _CHOOSE, _HOLD_PRISONER, _PLACE_RESCUED, _END_ACTIVATION, _END_TURN
cdef int _NO_DEFENCE, _LOAD, _VARIANT, _WAIT
cdef double _WAIT_SCORE, _NEVER_SCORE
cdef int _PACK, _DOUBLE_SIZE
cdef bytes _HEX_SCORER, _WAITS_WHILE_BUSY, _GLOBAL_SCORER


@cython.locals(enemy=list, u=int)
cpdef tuple signature(GameState state, int me)
@cython.locals(ctx=Context, n=int, top=int, count=int, out=cython.double[:], free=set, first=int, i=int, code=int,
               busy=bint, verb=int, kind=int)
cpdef object _score_all(object agent, GameState state, list legal, object info)
cpdef double _score_code(Context ctx, int kind, int verb, int cell)
@cython.locals(vals=cython.double[:], r=double, best=double, best_code=int, i=int, s=double, code=int)
cpdef int _best_code(object values, list legal, double noise, object rnd)

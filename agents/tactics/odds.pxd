# C types for odds.py in the compiled build (see vigtavl_env/engine/state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.combat cimport defender_at, defender_options, preview_attack_dice
from vigtavl_env.engine.state cimport positions
from agents.tactics.values cimport dev_count

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int BREACH_HIT_MAX, FREIGHTER, LAST_DEVELOPMENT_BONUS, NO_DEV, ON_BOARD
# This module's own table (nothing imports it): a C array of doubles.
cdef double[:] _RANGED_HIT
cdef int _TABLE_DICE


cpdef double close_win_prob(int attack, int defend, int overwhelm=*)
cpdef double ranged_hit_prob(int dice, int reach, int overwhelm=*)
@cython.locals(k=int)
cpdef double _ranged_hit(int dice, int reach)
@cython.locals(d=int)
cpdef int attack_dice_from(GameState state, int base, int target, int origin, bint ranged)
cpdef double loss_prob(GameState state, int dice, int reach, int u)
@cython.locals(t=int, c=int, owner=int, v=double, k=int, standing=int, dev=int, piece=double)
cpdef double stake_value(GameState state, int u)
@cython.locals(best=int, best_p=double, u=int, p=double, loss=double, best_loss=double, cost=int, best_cost=int)
cpdef tuple choose_defender(GameState state, int dice, int reach, list options)

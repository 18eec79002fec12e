# C types for observation.py in the compiled build (see engine/state.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState, Pending
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.free_actions cimport still_defended
from vigtavl_env.engine.legal cimport variant_options
from vigtavl_env.engine.variants cimport variant_features

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ARTILLERY_RANGE, BATTLE, BUILD, CASTLE, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD
cdef int CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_SEIZER, CHOOSE_SIDE, CHOOSE_VARIANT, LOADED, MAX_VARIANTS
cdef int MOVE_DONE, ON_BOARD, OVER, PLACEMENT, PRISONER, RESERVE, SPENT, UNITS_PER_TURN
cdef int UNITS_PER_TURN_WITH_CASTLE


cdef int _G_ACTIVE, _G_ACTIVE_CAN_ATTACK, _G_ACTIVE_MOVE_LEFT, _G_ACTIVE_TYPE, _G_ARTILLERY, _G_ATTACKS, _G_BUILDS_LEFT, _G_DEFENDED, _G_DEV, _G_FLAG, _G_FRONT, _G_GOLD, _G_OCCUPY, _G_PENDING, _G_PENDING_ATTACKER, _G_PENDING_CELL, _G_PENDING_DICE, _G_PENDING_ORIGIN, _G_PENDING_RANGE, _G_PHASE, _G_RECRUIT, _G_RESERVE, _G_RETALIATOR, _G_ROUND, _G_SEIZED, _G_SILVER, _G_SPENT, _G_SUNK, _G_TOKENS, _G_TURN, _G_VARIANT, _G_WALL, _G_WIND

@cython.locals(P=int, spent0=int, u=int, w=int, t=int, o=int, cell=int, rel=int, i=int, dev0=int, art0=int,
               c=int, p=int, d=int, wall0=int, e=int, k=int, reserve=list, castle=list, units0=int,
               n_types=int, sides0=int)
cpdef draw(GameState state, int observer, float[:] f, int[:] tc, int[:] tab, int hw)
@cython.locals(front0=int, attacks0=int, c=int, pend=Pending)
cpdef _draw_marks(GameState state, float[:] f, int[:] tc, int[:] tab, int hw)
@cython.locals(P=int, tp=int, cap=int, flag0=int, top=Activation, t=int, pend=Pending, p=int, rel=int, i=int)
cpdef _draw_scalars(GameState state, int observer, float[:] f, int[:] tc, int[:] tab, int hw, list reserve,
                    list castle)
@cython.locals(base=int, j=int)
cpdef _fill(float[:] f, int[:] tc, int hw, int channel, double v)

# C types for placement.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
from agents.heuristic.context cimport Context
from agents.tactics.maps cimport MapInfo
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.legal cimport variant_options
from vigtavl_env.engine.variants cimport unit_status, variant_features

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int ACTING, CHOOSE_BREACHER, DISCHARGE, FREIGHTER, GALLEON, LOAD, ON_BOARD, PLACE, VARIANT


@cython.locals(st=GameState, me=int, t=int, v=double, y=int, dd=int, x=int, near=int, u=int, dist=cython.int[:], row=int,
               info=MapInfo, behind=bytearray, count=int)
cpdef double score_place(Context ctx, int verb, int cell)

# C types for placement.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
from agents.heuristic.context cimport Context

@cython.locals(st=GameState, me=int, t=int, v=double, y=int, dd=int, x=int, near=int, u=int)
cpdef double score_place(Context ctx, int verb, int cell)

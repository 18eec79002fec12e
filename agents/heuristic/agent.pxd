# C types for agent.py in the compiled build (see context.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState

@cython.locals(enemy=list, u=int)
cpdef tuple signature(GameState state, int me)

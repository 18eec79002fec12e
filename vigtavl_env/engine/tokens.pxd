# C types for tokens.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState

cpdef bint may_close_enclosure(GameState state, int player, int edge)
@cython.locals(e=int)
cpdef bint _wall_continues(GameState state, int player, int edge, tuple edges)
cpdef bint _mountain_edge(GameState state, int edge)
cpdef check_wall_awards(GameState state, int player, int new_edge=*)

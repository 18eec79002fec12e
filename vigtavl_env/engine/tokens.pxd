# C types for tokens.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.state cimport count_of, positions


cpdef bint may_close_enclosure(GameState state, int player, int edge)
@cython.locals(e=int)
cpdef bint _wall_continues(GameState state, int player, int edge, tuple edges)
cpdef bint _mountain_edge(GameState state, int edge)
cpdef check_wall_awards(GameState state, int player, int new_edge=*)
@cython.locals(seen=list, total=int, s=int, stack=list, size=int, open_=bint, walled=bint, a=int, d=int, b=int)
cpdef int enclosed_hexes(GameState state, int player)
@cython.locals(e=int, best=int, at=dict, used=set)
cpdef int longest_wall(GameState state, int player)
@cython.locals(best=int, e=int, a=int, b=int)
cpdef int _longest_run(dict at, tuple verts, set used, int v)
@cython.locals(p=int, prisoners=list, devs=list, u=int, c=int)
cpdef dict end_counts(GameState state)

# C types for tokens.py in the compiled build (see state.pxd).
cimport cython
from vigtavl_env.engine.state cimport GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.state cimport count_of, positions, zero_flags

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int CAMP, CASTLE, CITADEL, COMPLEX, FORT, GREAT_WALL, MOUNTAIN, N_TOKEN_SOURCES, PRISONER, SRC_ADMIRAL
cdef int SRC_BUILDER, SRC_CITADEL, SRC_COMPLEX, SRC_GENERAL, SRC_GREAT_WALL


cpdef bint may_close_enclosure(GameState state, int player, int edge)
@cython.locals(e=int)
cpdef bint _wall_continues(GameState state, int player, int edge, tuple edges)
cpdef bint _mountain_edge(GameState state, int edge)
cpdef check_wall_awards(GameState state, int player, int new_edge=*)
cpdef _award(GameState state, int player, int flag, int tokens, str name)
cpdef bint has_complex(GameState state, int player)
cpdef check_complex(GameState state, int player)
@cython.locals(seen=list, total=int, s=int, stack=list, size=int, open_=bint, walled=bint, a=int, d=int, b=int)
cpdef int enclosed_hexes(GameState state, int player)
@cython.locals(e=int, v=int, best=int, free=bytearray, started=bytearray, verts=tuple, at_corner=tuple)
cpdef int longest_wall(GameState state, int player)
@cython.locals(best=int, e=int, a=int, b=int)
cpdef int _longest_run(bytearray free, tuple verts, tuple at_corner, int v)
@cython.locals(p=int, prisoners=list, devs=list, u=int, c=int)
cpdef dict end_counts(GameState state)

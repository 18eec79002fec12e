# C types for maps.py in the compiled build (see vigtavl_env/engine/state.pxd): MapInfo is a C
# type, so a module that cimports it reads its tables as C fields (a Python class's attribute is
# a dictionary look-up at each read).
cimport cython
from vigtavl_env.engine.state cimport GameState

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int LOADED


cdef class MapInfo:
    cdef public object gmap, LD, DECK, threat_cache
    cdef public int n
    cdef public list nb, shore, sea_nb, land_dist, land_order, deck_list
    cdef public tuple is_land, is_sea, coastal, dist
    cdef public int[:] land_flat, deck_flat, rays_flat, ray_edges_flat, dist_flat, direction_flat  # C arrays: no check at each read
    cdef public dict _sea

    @cython.locals(t=int, c=int)
    cpdef list reach_list(self, GameState state, int u)

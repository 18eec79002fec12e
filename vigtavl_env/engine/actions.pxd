cimport cython
# C types for actions.py in the compiled build (see state.pxd). The verb numbers stay Python
# names here (legal.pxd declares its own C copies of the ones it needs).

cdef int _HEX_VERBS, _GLOBAL_VERBS

cpdef int encode(int verb, int cell, int n_cells)
cpdef int encode_global(int g, int n_cells)
cpdef as_code(object code)
@cython.locals(c=long, top=long)
cpdef tuple decode(object code, int n_cells)
cpdef int n_actions(int n_cells)

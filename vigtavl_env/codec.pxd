# C types for codec.py in the compiled build (see engine/state.pxd).
cimport cython

@cython.locals(k=Py_ssize_t)
cpdef _set_ones(unsigned char[::1] row, const long[::1] env_of, list codes)
@cython.locals(k=Py_ssize_t)
cpdef _gather(long[::1] out, const long[::1] env_of, list codes)

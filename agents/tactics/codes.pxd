# C types for codes.py in the compiled build (see vigtavl_env/engine/state.pxd): the legal list
# is split with C integer arithmetic, one pass.
cimport cython

@cython.locals(out=dict, top=int, code=int, g=int, verb=int, items=list, key=object, groups=tuple, verbs=tuple, item=tuple)
cpdef dict split_legal(list legal, int n_cells)

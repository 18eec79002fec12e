# C types for observation.py in the compiled build (see engine/state.pxd).
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState, Pending

@cython.locals(P=int, spent0=int, u=int, w=int, t=int, o=int, cell=int, rel=int, i=int, dev0=int, art0=int,
               c=int, p=int, d=int, wall0=int, e=int, k=int, reserve=list, castle=list, units0=int,
               n_types=int, sides0=int)
cpdef draw(GameState state, int observer, float[:] f, int[:] tc, int[:] tab, int hw)
@cython.locals(front0=int, attacks0=int, c=int, pend=Pending)
cpdef _draw_marks(GameState state, float[:] f, int[:] tc, int[:] tab, int hw)
@cython.locals(P=int, tp=int, cap=int, flag0=int, top=Activation, t=int, pend=Pending, p=int, rel=int, i=int)
cpdef _draw_scalars(GameState state, int observer, float[:] f, int[:] tc, int[:] tab, int hw, list reserve,
                    list castle)
@cython.locals(base=int, j=int)
cpdef _fill(float[:] f, int[:] tc, int hw, int channel, double v)

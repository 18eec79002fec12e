# C types for seats.py in the compiled build (see engine/state.pxd): the engine table the vector
# env steps is a C type, and its engine calls are C calls.
cimport cython
from vigtavl_env.engine.state cimport GameState
from vigtavl_env.engine.game cimport apply_action, legal_actions


cdef class EngineTable:
    cdef public GameState state
    cdef public int max_steps, steps
    cdef public list legal

    cpdef object seat_to_decide(self)
    cpdef play(self, object player)
    cpdef play_code(self, int code)
    cpdef list _legal_now(self)


@cython.locals(seat=object)
cpdef object play_other_seats(object table, object players)

# C types for context.py in the compiled build (see vigtavl_env/engine/state.pxd): the
# per-decision context is a C type whose state is a GameState, so its methods read the state's
# tables as C arrays, its facts are C fields, and the scorers (movement.pxd, ...) call its
# methods as C functions.
cimport cython
from vigtavl_env.engine.state cimport Activation, GameState
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from vigtavl_env.engine.building cimport unit_sites
from vigtavl_env.engine.free_actions cimport guard_cells
from vigtavl_env.engine.movement cimport has_development
from vigtavl_env.engine.state cimport active_of, count_of, positions
from agents.tactics.maps cimport MapInfo
from vigtavl_env.engine.tokens cimport longest_wall
from agents.tactics.threats cimport Threats, seize_exposure
from agents.tactics.values cimport battle_turns_left, seize_value, turns_left

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int BATTLE, FREIGHTER, FREIGHTER_CAPACITY, LAST_DEVELOPMENT_BONUS, LOADED, ON_BOARD, PRISONER
# This module's own: IS_SHIP and UNIT_COST as bytes (nothing imports them).
cdef bytes _SHIP, _COST


cdef class Weights:
    cdef public double attack, seize, approach, guard, caution, dev, dev_safety, complex, walls, units, first_camp
    cdef public double landing
    cdef public tuple unit_pref, loads


cdef class Context:
    cdef public GameState state
    cdef public MapInfo info
    cdef public Weights w
    cdef public int me, my_battle_left, my_turns_left, _wall_len, n
    cdef public bint battle, can_capture, future
    cdef public object agent, board, sig, counts
    cdef public list threats, my_devs
    cdef public set free_seizes
    cdef public bytearray _berths
    cdef bytearray _near
    cdef public dict cache, pos, _targets
    cdef public dict defences, feints, victims  # attacks.py's memos
    cdef public bytearray _wall_ext
    cdef double[:] this_turn, _by_hex  # made on first use (None until then); this_turn: attacks.py's
    cdef double _builder_gain
    cdef double[:] _lasting  # lasting_value by (type, hex, aboard), NaN until worked out
    cdef int[:] target_at  # targets(): the defending unit per hex, -1 where none
    cdef public tuple _tables
    cdef double[:] _land, _sea, _risk  # tables(), as C arrays
    cdef dict __dict__

    cpdef tuple tables(self)
    cpdef double approach_risk(self, int c)
    cpdef int wall_length(self)
    @cython.locals(g=set)
    cpdef set guards(self, int p)
    @cython.locals(st=GameState, best=dict, u=int, c=int, o=int, t=int, at=object)
    cpdef dict targets(self)
    @cython.locals(st=GameState, top=Activation, u=int)
    cpdef tuple acting_unit(self)
    @cython.locals(st=GameState, v=double, u=int)
    cpdef double dev_worth(self, int c)
    @cython.locals(e=double, g=set)
    cpdef double exposure(self, int c, int extra_guard=*)
    @cython.locals(gain=double, st=GameState, k=int, d=int, before=double, devown=cython.int[:])
    cpdef double guard_gain(self, int c)
    @cython.locals(st=GameState, flags=bytearray, x=int, k=int, y=int)
    cpdef bytearray near_devs(self)
    @cython.locals(key=int, known=double, v=double, ship=bint, cost=int, pr=double,
                   pull=double, berths=bytearray, st=GameState, d=int, y=int, th=Threats)
    cpdef double lasting_value(self, int t, int c, bint loaded=*)
    @cython.locals(st=GameState, j=bytearray, e=int, mine=list, x=int)
    cpdef bytearray wall_extensions(self)
    @cython.locals(st=GameState, f=bytearray, u=int)
    cpdef bytearray freighter_berths(self)
    @cython.locals(e=double, g=set, th=Threats)
    cpdef double new_dev_exposure(self, int c)
    cpdef _make_by_hex(self)
    @cython.locals(v=object, counts=list, me=int, p=int, d=int, lead=int, margin=double)
    cpdef double award_delta(self, int kind, tuple changes)
    cpdef double builder_award_gain(self)
    cpdef list unit_sites(self, int t)


@cython.locals(owner=int)
cpdef double seize_tokens(Context ctx, int x)
@cython.locals(shares=list, best=double, p=Py_ssize_t)
cpdef double _award_standing(list counts, bint need_one, int me)
@cython.locals(best=int, p=Py_ssize_t)
cpdef int _best_other(list counts, int me)
cpdef object unknown_values(Py_ssize_t count)
cpdef object unit_place_memo(int n)

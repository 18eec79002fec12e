# C types for evaluation.py in the compiled build (see vigtavl_env/engine/state.pxd): the search
# bot evaluates every simulation's last position with player_scores.
cimport cython
from vigtavl_env.engine.state cimport GameState
from agents.tactics.threats cimport Threats
# The other compiled modules' functions this module calls, cimported so that the calls are C calls
# (imported by name alone, as in the .py, each call would go through a Python function object).
from agents.tactics.threats cimport seize_exposure
from agents.tactics.values cimport battle_turns_left

# Constants of other modules this module compares with, as C ints here (imported by name in the .py;
# nothing imports them from this module).
cdef int BATTLE, LAST_DEVELOPMENT_BONUS, ON_BOARD, OVER, PRISONER


@cython.locals(n=int, tp=int, p=int, q=int, c=int, u=int, worst=double, by=int, e=double, gain=double, k=double,
               th=Threats, v=int, cost=int, best=double, pr=double, tw=double, uw=double, threat=dict, order=dict,
               scores=list, devs=list, guard=list, seen_cells=set, held_at=dict)
cpdef list player_scores(GameState state, object info, object weights=*)

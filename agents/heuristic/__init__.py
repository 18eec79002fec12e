"""Rules-based bots: one scoring engine, three styles of play (:mod:`.styles`).

Every legal decision gets a score in victory tokens: what it wins now (battle odds times the
defeated unit's value, a seizure's value, the Complex, Great Wall and Citadel, progress towards
the end awards) plus how much better the position is for the turns to come (guarding exposed
developments, standing within reach of targets, keeping units out of reach of stronger enemies).
The bot plays the best-scoring decision. ``decide`` is the whole interface;
:meth:`HeuristicAgent.scored` exposes the scores so the search bot can take the best few as its
candidates.

Where each judgement lives:

| module | judges |
|---|---|
| :mod:`.styles` | the weights of aggressor, builder and greedy |
| :mod:`.context` | the facts of one decision: threats, exposure, a unit's lasting value, targets, the awards |
| :mod:`.movement` | moves, battle moves' sides, activations |
| :mod:`.attacks` | what a unit can win this turn (its best attack, who defends, the feint); close combat, shots, artillery fire, breaches |
| :mod:`.seizures` | what a unit can seize from a hex; seizures, occupying, who defends, prisoners and rescues |
| :mod:`.building` | developments, units, walls, discharging, recruiting |
| :mod:`.placement` | the setup: loads, placing ships, which unit of a type acts |
| :mod:`.agent` | the bot: dispatch, the style's tie-break, caches across decisions |
| :mod:`.search` | the search bot: the best few decisions, each tried in simulated futures |
| :mod:`.ppo_search` | the search bot with a trained policy's favourites among its candidates |
"""

from .agent import HeuristicAgent, aggressor, builder, greedy
from .styles import AGGRESSOR, BUILDER, GREEDY, STYLES, Style

__all__ = ["AGGRESSOR", "BUILDER", "GREEDY", "STYLES", "HeuristicAgent", "Style", "aggressor", "builder", "greedy"]

"""The three styles of play: the weights one scoring engine gives to each kind of gain.

- **aggressor** seeks battles it can win, drives cavalry and soldiers towards enemy units and
  developments, seizes what is left undefended, plays the feint and attrition, and lands its
  knights near the enemy. It builds a camp early so it may capture at all (U28).
- **builder** develops: the Complex (castle, fort and camp side by side) in one turn, more
  developments for the Builder award, walls for the Great Wall, the Citadel and around its
  developments, knights to guard what it built; it attacks when the odds are good.
- **greedy** takes the decision with the best expected token gain now, one decision at a time,
  with only a light positional tie-break.

Each style also has its favourite split of the starting knights over the two freighters.
"""

from __future__ import annotations


from dataclasses import dataclass



@dataclass(frozen=True)
class Style:
    """Weights of one style of play (victory-token units unless said otherwise)."""

    name: str
    attack: float = 1.0  # multiplier on a battle's expected tokens
    seize: float = 1.0  # multiplier on a seizure's tokens
    approach: float = 0.3  # pull towards other players' targets for the turns to come
    guard: float = 0.6  # value of covering an exposed own development
    caution: float = 0.4  # weight of the chance of losing a unit where it stands
    dev: float = 1.0  # weight of a development's lasting value (awards, production)
    dev_safety: float = 0.7  # weight of a new development's exposure
    complex: float = 1.0  # pursue the Complex
    walls: float = 0.5  # walls: Great Wall, Citadel and protection (0: never builds walls)
    units: float = 0.5  # weight of building combat units
    unit_pref: tuple[float, ...] = (1.0, 0.8, 1.0, 0.6, 0.0, 0.5)  # per unit type
    first_camp: float = 1.0  # extra value of a first development (prisoners, production)
    landing: float = 0.4  # value of a knight standing on land rather than aboard
    noise: float = 0.01  # random tie-break, in tokens
    # Setup: preference per split of the starting knights (stats.FREIGHTER_SPLITS: SSS|AAC,
    # SSA|SAC, SSC|SAA). By default an archer on each freighter: both landings can shoot.
    loads: tuple[float, float, float] = (0.0, 1.0, 0.5)


AGGRESSOR = Style("aggressor", attack=1.4, seize=1.2, approach=0.7, guard=0.3, caution=0.15,
                  dev=0.6, dev_safety=0.4, complex=0.3, walls=0.0, units=0.9,
                  unit_pref=(0.8, 0.6, 1.3, 0.7, 0.0, 0.6), first_camp=2.0, landing=1.0,
                  loads=(0.0, 0.5, 1.0))  # the cavalry lands with two soldiers to feint for it


BUILDER = Style("builder", attack=0.9, seize=1.0, approach=0.15, guard=1.0, caution=0.5,
                dev=1.3, dev_safety=0.9, complex=1.5, walls=1.0, units=0.5,
                unit_pref=(1.2, 0.7, 0.6, 0.3, 0.0, 0.2), first_camp=1.0, landing=1.0,
                loads=(1.0, 0.5, 0.0))  # three soldiers land together to guard the first camp


GREEDY = Style("greedy", attack=1.0, seize=1.0, approach=0.2, guard=0.4, caution=0.3,
               dev=1.0, dev_safety=0.6, complex=1.0, walls=0.3, units=0.4,
               unit_pref=(1.0, 0.8, 1.0, 0.6, 0.0, 0.5), first_camp=1.0, landing=0.8)


STYLES = {s.name: s for s in (AGGRESSOR, BUILDER, GREEDY)}

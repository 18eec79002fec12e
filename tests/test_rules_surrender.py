"""Scenario tests for surrender judged with the movement of the phase the ring closes in (T4,
T7 of docs/rules.md), and for whether a surrender pays Battle tokens (O3).

The ringed hex is (0,0): player 1's soldier (movement 3) stands there; player 0 holds five of
its neighbours and closes the sixth, (0,1), by moving a soldier there from (0,2).
"""

from __future__ import annotations

import pytest
from conftest import at, make_map

from vigtavl_env.engine.config import RulesConfig
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import ON_BOARD, PRISONER

RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
# Ring 2 around (0,0), but (0,2), where the closing soldier comes from, and the hexes past it.
SEALED = [(2, 0), (2, -1), (2, -2), (1, -2), (0, -2), (-1, -1), (-2, 0), (-2, 1), (-2, 2), (-1, 2), (1, 1),
          (1, 2), (0, 3), (-1, 3)]


def ring_closed(phase: str, sealed: bool = False, **options) -> tuple[object, int]:
    """Player 0 closes the ring around player 1's soldier at (0,0) in ``phase``. ``sealed``:
    every hex past the ring is a mountain, or (0,2), which player 0 still holds after the move
    (two soldiers stood there), so nothing lies beyond the ring to stop on."""
    sc = Scenario(make_map(mountains=SEALED if sealed else ()), phase=phase,
                  config=RulesConfig(**options), silver=6)
    sc.development(0, "camp", (-4, 0) if not sealed else (0, -4))
    sc.development(1, "camp", (4, -4))
    ringed = sc.unit(1, "soldier", (0, 0))
    for h in RING:
        sc.unit(0, "soldier", h)
    for _ in range(2 if sealed else 1):
        sc.unit(0, "soldier", (0, 2))
    state = sc.build()
    act(state, "activate soldier", (0, 2))
    act(state, "move", (0, 1))
    return state, ringed


def surrendered(state) -> bool:
    return any(e["event"] == "surrender" for e in state.events)


def test_build_phase_ring_with_a_way_through_does_not_surrender():
    """T7: "During the build phase, units may pass through but not end their movement in hexes
    occupied by another player", so a soldier ringed in the build phase that can pass through
    the ring to a free hex is not "unable to move": it stays on the board."""
    state, ringed = ring_closed("build")
    assert state.u_where[ringed] == ON_BOARD and at(state, ringed) == (0, 0)
    assert not surrendered(state) and state.tokens == [0, 0]


def test_battle_phase_ring_surrenders():
    """T4: the same ring closed in the battle phase, where no unit passes through another
    player's hex: the soldier surrenders, a prisoner of the encircler, who takes his token."""
    state, ringed = ring_closed("battle")
    assert state.u_where[ringed] == PRISONER and state.u_holder[ringed] == 0
    assert surrendered(state) and state.tokens == [1, 0]


def test_build_phase_ring_with_nothing_beyond_surrenders():
    """T7: surrender applies in the build phase too (the document names no phase): a ring past
    which the soldier cannot stop anywhere (mountains, and player 0's hex (0,2)) takes it."""
    state, ringed = ring_closed("build", sealed=True)
    assert state.u_where[ringed] == PRISONER and state.u_holder[ringed] == 0
    assert surrendered(state)


@pytest.mark.parametrize("phase", ["build", "battle"])
def test_option_battle_movement_judges_every_phase(phase):
    """T7, option ``surrender_escape="battle"``: escape judged with the battle phase's movement
    in every phase, so the build-phase ring with a way through takes the soldier too."""
    state, ringed = ring_closed(phase, surrender_escape="battle")
    assert state.u_where[ringed] == PRISONER and surrendered(state)


def test_surrender_pays_battle_tokens_unless_the_option_says_no():
    """O3: units captured by surrender count as defeated and pay the encircler Battle tokens;
    under ``surrender_pays_tokens=False`` they are captured all the same but pay nothing."""
    paid, _ = ring_closed("battle")
    state, ringed = ring_closed("battle", surrender_pays_tokens=False)
    assert paid.tokens == [1, 0]
    assert state.u_where[ringed] == PRISONER and state.tokens == [0, 0]


@pytest.mark.parametrize("bad", [dict(surrender_escape="build"), dict(retaliation_order="random"),
                                 dict(surrender_pays_tokens="yes")])
def test_bad_rule_options_are_refused_in_one_line(bad):
    with pytest.raises(ValueError) as e:
        RulesConfig(**bad)
    assert "\n" not in str(e.value) and next(iter(bad)) in str(e.value)

"""Walls: building, relocating, blocking and breaching (docs/rules.md rows WL1-WL6), and the
surrender a wall's building may bring (T4)."""

from __future__ import annotations

from conftest import make_map, refused

from vigtavl_env.engine import RulesConfig
from vigtavl_env.engine.scenario import Scenario, act, legal
from vigtavl_env.engine.state import BREACHED, CHOOSE_BREACHER, MOVE_UNUSED, ON_BOARD, PRISONER
from vigtavl_env.engine.stats import CAVALRY, SOLDIER

SEA = [(2, 0), (2, -1), (3, -1), (3, 0)]


def edge(state, at, d):
    return state.gmap.board.edge[state.gmap.board.index[at]][d]


def wall_owner(state, at, d):
    return state.walls[edge(state, at, d)]


def found(state, prefix):
    return {(v, at) for v, at in legal(state) if v.startswith(prefix)}


def test_wall_sites():
    """WL1: walls go "on any edge of a player's occupied or built hexes" (border included), cost 1."""
    held = [(0, 0), (-3, 0), (2, -2), (5, -2)]  # soldier, camp, artillery, caravel (border sea)
    sc = Scenario(make_map(2), phase="build", gold=30)
    sc.unit(0, "soldier", (0, 0))
    sc.development(0, "camp", (-3, 0))
    sc.artillery(0, (2, -2))
    sc.unit(0, "caravel", (5, -2))
    sc.wall(0, (0, 0), "NW")  # already walled
    sc.unit(1, "soldier", (0, 2))  # the opponent's hex
    sc.wall(1, (-3, 0), "SW")  # the opponent's wall on the camp's edge
    state = sc.build()
    expected = {(f"build wall {d}", h) for h in held for d in range(6)}
    expected -= {("build wall 2", (0, 0)), ("build wall 4", (-3, 0))}
    assert found(state, "build wall") == expected
    # The border hex (5,-2) has its east edges on the open ocean: a wall may stand there too.
    assert state.gmap.board.neighbours[state.gmap.board.index[(5, -2)]][0] == -1
    assert ("build wall 0", (5, -2)) in expected
    assert refused(state, "build wall 0", (0, 2))  # the opponent's hex
    assert refused(state, "build wall 0", (-1, 2))  # nobody's hex
    assert refused(state, "build wall 2", (0, 0))  # already walled

    # Each wall costs 1 gold and there is no limit: the player walls in his soldier's hex.
    for k, d in enumerate((0, 1, 3, 4, 5), start=1):
        act(state, f"build wall {d}", (0, 0))
        assert wall_owner(state, (0, 0), d) == 0
        assert state.gold[0] == 30 - k
    assert all(wall_owner(state, (0, 0), d) == 0 for d in range(6))
    assert not {v for v, at in found(state, "build wall") if at == (0, 0)}

    # No gold, no wall.
    sc = Scenario(make_map(2), phase="battle", gold=0)
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    assert not found(state, "build wall")
    assert refused(state, "build wall 0", (0, 0))


def _relocation_position(gold):
    sc = Scenario(make_map(2), phase="build", gold=gold)
    sc.unit(0, "soldier", (0, 0))
    sc.wall(0, (0, 0), "E")
    sc.wall(0, (0, 0), "SE")
    sc.unit(1, "soldier", (-2, 2))
    sc.wall(1, (-2, 2), "E")  # the opponent's wall: not his to move
    return sc.build()


def test_relocate_wall_once_per_turn():
    """WL2: once a turn a wall may be taken down and rebuilt elsewhere at no cost."""
    state = _relocation_position(gold=2)
    assert found(state, "relocate wall") == {("relocate wall 0", (0, 0)), ("relocate wall 5", (0, 0))}
    assert refused(state, "relocate wall 0", (-2, 2))
    act(state, "relocate wall 0", (0, 0))
    assert wall_owner(state, (0, 0), 0) == -1
    assert state.gold[0] == 2
    assert not found(state, "relocate wall")  # once a turn
    assert refused(state, "relocate wall 5", (0, 0))
    act(state, "build wall 2", (0, 0))  # the wall in hand goes up again for nothing
    assert wall_owner(state, (0, 0), 2) == 0 and state.gold[0] == 2
    act(state, "build wall 3", (0, 0))  # the next one is paid for
    assert state.gold[0] == 1
    assert sum(1 for o in state.walls if o == 0) == 3

    # With no gold at all the relocated wall still goes up.
    state = _relocation_position(gold=0)
    assert not found(state, "build wall")
    act(state, "relocate wall 5", (0, 0))
    assert found(state, "build wall")
    act(state, "build wall 1", (0, 0))
    assert wall_owner(state, (0, 0), 1) == 0 and state.gold[0] == 0
    assert not found(state, "build wall")

    # A wall taken down and not rebuilt is lost at the end of the turn; next turn allows
    # another relocation, and walls cost gold again.
    state = _relocation_position(gold=0)
    act(state, "relocate wall 0", (0, 0))
    act(state, "end turn")
    act(state, "end turn")
    assert state.turn_player == 0 and state.gold[0] == 6
    assert sum(1 for o in state.walls if o == 0) == 1
    assert found(state, "relocate wall") == {("relocate wall 5", (0, 0))}
    act(state, "build wall 0", (0, 0))
    assert state.gold[0] == 5


def test_walls_block_others_not_owner():
    """WL3: units may not move or attack through opponent walls; a player's own walls never
    block his own units."""
    def boxed(wall_owner_, phase="battle"):
        sc = Scenario(make_map(2, sea=SEA), phase=phase)
        sc.unit(0, "soldier", (0, 0))
        sc.unit(0, "caravel", (2, 0))
        for d in range(6):
            sc.wall(wall_owner_, (0, 0), d)
            sc.wall(wall_owner_, (2, 0), d)
        return sc.build()

    state = boxed(1)
    act(state, "activate soldier", (0, 0))
    assert not found(state, "move")
    assert refused(state, "move", (1, 0))
    act(state, "end activation")
    act(state, "activate caravel", (2, 0))
    assert not found(state, "move")
    state = boxed(0)
    act(state, "activate soldier", (0, 0))
    assert ("move", (1, 0)) in found(state, "move") and ("move", (-3, 0)) in found(state, "move")
    act(state, "end activation")
    act(state, "activate caravel", (2, 0))
    assert ("move", (3, 0)) in found(state, "move")

    # Close combat through a wall: not through the opponent's, freely through his own.
    for owner, allowed in ((1, False), (0, True)):
        sc = Scenario(make_map(2), phase="battle")
        sc.development(0, "camp", (-3, 0))  # somewhere to hold prisoners
        sc.unit(0, "soldier", (0, 0))
        sc.unit(1, "soldier", (1, 0))
        sc.wall(owner, (0, 0), "E")
        state = sc.build()
        act(state, "activate soldier", (0, 0))
        assert (("attack", (1, 0)) in found(state, "attack")) == allowed

    # Ranged attacks along a line: stopped by the opponent's wall, not by his own.
    for owner, allowed in ((1, False), (0, True)):
        sc = Scenario(make_map(2), phase="battle")
        sc.development(0, "camp", (-3, 0))
        sc.unit(0, "archer", (0, 0))
        sc.unit(1, "soldier", (3, 0))
        sc.wall(owner, (1, 0), "E")
        state = sc.build()
        act(state, "activate archer", (0, 0))
        assert (("shoot", (3, 0)) in found(state, "shoot")) == allowed


def _breach_position(units, phase="battle", wall_at=((0, 0), "E")):
    sc = Scenario(make_map(2), phase=phase)
    for kind, at in units:
        sc.unit(0, kind, at)
    sc.unit(1, "soldier", (2, 0))
    sc.wall(1, *wall_at)
    return sc.build()


def test_breach_success_and_failure():
    """WL4: a unit next to an opponent wall rolls its cost in dice; any 1-3 removes the wall."""
    # Build phase: no breaching.
    state = _breach_position([("cavalry", (0, 0))], phase="build")
    assert not found(state, "breach")

    # A cavalry rolls three dice: no 1-3 and the wall stands ...
    state = _breach_position([("cavalry", (0, 0))])
    assert found(state, "breach") == {("breach wall 0", (0, 0))}
    state.forced_dice[:] = [6, 5, 4]
    act(state, "breach wall 0", (0, 0))
    assert state.forced_dice == [] and wall_owner(state, (0, 0), 0) == 1
    ev = [e for e in state.events if e["event"] == "breach"][-1]
    assert ev["dice"] == [6, 5, 4] and not ev["success"]
    assert not found(state, "breach")  # its one attempt this turn is spent
    # ... one die of 3 and it falls.
    state = _breach_position([("cavalry", (0, 0))])
    state.forced_dice[:] = [6, 6, 3]
    act(state, "breach wall 0", (0, 0))
    assert state.forced_dice == [] and wall_owner(state, (0, 0), 0) == -1

    # A soldier rolls one die.
    for die, falls in ((3, True), (4, False), (1, True), (6, False)):
        state = _breach_position([("soldier", (0, 0))])
        state.forced_dice[:] = [die, 1]
        act(state, "breach wall 0", (0, 0))
        assert state.forced_dice == [1]
        assert (wall_owner(state, (0, 0), 0) == -1) == falls

    # Of two units on the hex the player picks the breacher (test_player_chooses_which_unit_
    # breaches): the cavalry rolls three dice; then the soldier, the only one left, one die.
    state = _breach_position([("soldier", (0, 0)), ("cavalry", (0, 0))])
    state.forced_dice[:] = [4, 5, 6, 2]
    act(state, "breach wall 0", (0, 0))
    act(state, "choose cavalry", (0, 0))
    assert state.forced_dice == [2] and wall_owner(state, (0, 0), 0) == 1
    cav = next(u for u in range(len(state.u_type)) if state.u_owner[u] == 0 and state.u_type[u] == 2)
    assert state.u_flags[cav] & BREACHED
    act(state, "breach wall 0", (0, 0))  # now the soldier, with the last die
    assert state.pending is None
    assert state.forced_dice == [] and wall_owner(state, (0, 0), 0) == -1

    # Breaching is not one of the unit's actions: an active unit still moves and attacks after.
    sc = Scenario(make_map(2), phase="battle")
    sc.development(0, "camp", (-3, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.wall(1, (0, 0), "E")
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    silver = list(state.silver)
    assert ("attack", (1, 0)) not in found(state, "attack")  # the wall is in the way
    state.forced_dice[:] = [6, 6, 1]
    act(state, "breach wall 0", (0, 0))
    assert wall_owner(state, (0, 0), 0) == -1 and state.silver == silver
    assert state.active.move == MOVE_UNUSED and not state.active.attacked
    assert ("attack", (1, 0)) in found(state, "attack") and found(state, "move")

    # A unit that has finished its activation this turn may not breach.
    state = _breach_position([("cavalry", (0, 0))])
    act(state, "activate cavalry", (0, 0))
    act(state, "end activation")
    assert not found(state, "breach")
    assert refused(state, "breach wall 0", (0, 0))

    # Nobody next to the wall, or the wall is his own: nothing to breach.
    state = _breach_position([("cavalry", (0, 0))], wall_at=((-2, 0), "W"))
    assert not found(state, "breach")
    sc = Scenario(make_map(2), phase="battle")
    sc.unit(0, "cavalry", (0, 0))
    sc.wall(0, (0, 0), "E")
    assert not found(sc.build(), "breach")


def test_each_unit_breaches_once():
    """WL4: each unit breaches once a turn ("more than once if the player has more than one
    knight on adjacent hexes"); the attempts return next turn."""
    state = _breach_position([("soldier", (0, 0)), ("soldier", (0, 0))])
    state.forced_dice[:] = [5]
    act(state, "breach wall 0", (0, 0))
    assert ("breach wall 0", (0, 0)) in found(state, "breach")  # the second soldier
    state.forced_dice[:] = [6]
    act(state, "breach wall 0", (0, 0))
    assert state.forced_dice == [] and wall_owner(state, (0, 0), 0) == 1
    assert not found(state, "breach")
    assert refused(state, "breach wall 0", (0, 0))

    # Units on both sides of the wall may each try.
    state = _breach_position([("soldier", (0, 0)), ("soldier", (1, 0))])
    assert found(state, "breach") == {("breach wall 0", (0, 0)), ("breach wall 3", (1, 0))}
    state.forced_dice[:] = [6]
    act(state, "breach wall 3", (1, 0))
    assert found(state, "breach") == {("breach wall 0", (0, 0))}

    # Next turn the soldiers stand upright and may try again.
    state = _breach_position([("soldier", (0, 0))])
    state.forced_dice[:] = [6]
    act(state, "breach wall 0", (0, 0))
    assert not found(state, "breach")
    act(state, "end turn")
    act(state, "end turn")
    assert state.turn_player == 0 and found(state, "breach") == {("breach wall 0", (0, 0))}


def test_breach_attrition_third_attempt():
    """WL5: "Upon the third attempt to breach, 2 additional dice may be added" (per wall, per turn)."""
    sc = Scenario(make_map(2), phase="battle")
    for _ in range(3):
        sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (1, 0))
    sc.wall(1, (0, 0), "E")  # between (0,0) and (1,0)
    sc.wall(1, (0, 0), "NE")  # another wall
    state = sc.build()
    for _ in range(2):
        state.forced_dice[:] = [6, 1]
        act(state, "breach wall 0", (0, 0))
        assert state.forced_dice == [1]  # one die each (a soldier's cost)
    # The first attempt on another wall gets no bonus.
    state.forced_dice[:] = [6, 1]
    act(state, "breach wall 1", (0, 0))
    assert state.forced_dice == [1] and wall_owner(state, (0, 0), 1) == 1
    # The third attempt on the first wall rolls 1 + 2 dice (from its other side, too).
    state.forced_dice[:] = [6, 6, 2]
    act(state, "breach wall 3", (1, 0))
    assert state.forced_dice == []
    assert wall_owner(state, (0, 0), 0) == -1
    ev = [e for e in state.events if e["event"] == "breach"][-1]
    assert ev["dice"] == [6, 6, 2] and ev["success"]

    # The count starts again each turn: two attempts, a new turn, and the next rolls one die.
    sc = Scenario(make_map(2), phase="battle")
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (0, 0))
    sc.wall(1, (0, 0), "E")
    state = sc.build()
    state.forced_dice[:] = [6, 6]
    act(state, "breach wall 0", (0, 0))
    act(state, "breach wall 0", (0, 0))
    act(state, "end turn")
    act(state, "end turn")
    state.forced_dice[:] = [6, 2, 2]
    act(state, "breach wall 0", (0, 0))
    assert state.forced_dice == [2, 2] and wall_owner(state, (0, 0), 0) == 1


def test_ship_breaches_coastal_wall():
    """WL6: "Ships may attempt to breach coastal walls" (dice = the ship's cost)."""
    sc = Scenario(make_map(2, sea=SEA), phase="battle")
    sc.development(1, "camp", (1, 0))  # coastal: sea at (2,0) and (2,-1)
    sc.wall(1, (1, 0), "E")  # between (1,0) and (2,0)
    sc.wall(1, (1, 0), "NE")  # between (1,0) and (2,-1)
    sc.unit(0, "caravel", (2, 0))
    sc.unit(0, "galleon", (2, -1))
    state = sc.build()
    assert found(state, "breach") == {("breach wall 3", (2, 0)), ("breach wall 4", (2, -1))}
    state.forced_dice[:] = [4, 1]
    act(state, "breach wall 3", (2, 0))  # the caravel: one die, a 4
    assert state.forced_dice == [1] and wall_owner(state, (1, 0), 0) == 1
    state.forced_dice[:] = [5, 6, 1]
    act(state, "breach wall 4", (2, -1))  # the galleon: three dice, the last a 1
    assert state.forced_dice == [] and wall_owner(state, (1, 0), 1) == -1


def _unit_of(state, player, utype):
    return next(u for u in range(len(state.u_type)) if state.u_owner[u] == player and state.u_type[u] == utype)


def test_player_chooses_which_unit_breaches():
    """WL4: when units of several types on the hex could breach, the player chooses which
    ("choose <unit>" at the hex, asked after "breach"): the chosen unit rolls its cost in dice
    and it alone has breached. With one type able to, nobody is asked."""
    for chosen, dice in (("soldier", [4]), ("cavalry", [4, 5, 6])):
        state = _breach_position([("soldier", (0, 0)), ("cavalry", (0, 0))])
        soldier, cavalry = _unit_of(state, 0, SOLDIER), _unit_of(state, 0, CAVALRY)
        state.forced_dice[:] = [4, 5, 6, 2]
        act(state, "breach wall 0", (0, 0))
        # Nothing rolled yet: the question is the player's, and it is all he may do now.
        assert state.forced_dice == [4, 5, 6, 2]
        assert state.pending is not None and state.pending.kind == CHOOSE_BREACHER
        assert state.current_player == 0
        assert legal(state) == [("choose soldier", (0, 0)), ("choose cavalry", (0, 0))]
        assert refused(state, "choose archer", (0, 0))
        assert refused(state, "end turn")
        assert refused(state, "breach wall 0", (0, 0))
        act(state, f"choose {chosen}", (0, 0))
        assert state.pending is None
        assert state.forced_dice == [4, 5, 6, 2][len(dice):]  # its cost in dice
        ev = [e for e in state.events if e["event"] == "breach"][-1]
        assert ev["dice"] == dice and not ev["success"]
        assert ev["unit"] == (soldier if chosen == "soldier" else cavalry)
        assert wall_owner(state, (0, 0), 0) == 1
        first, other = (soldier, cavalry) if chosen == "soldier" else (cavalry, soldier)
        assert state.u_flags[first] & BREACHED and not state.u_flags[other] & BREACHED
        # The other one may still try, with no question: it is the only one left.
        state.forced_dice[:] = [6, 6, 6]
        act(state, "breach wall 0", (0, 0))
        assert state.pending is None
        ev = [e for e in state.events if e["event"] == "breach"][-1]
        assert ev["unit"] == other and state.u_flags[other] & BREACHED
        assert state.forced_dice == [6, 6, 6][len(ev["dice"]):]

    # One type able to breach: two soldiers, or a soldier beside a cavalry that has finished
    # its activation. No question; a soldier's one die is rolled at once.
    state = _breach_position([("soldier", (0, 0)), ("soldier", (0, 0))])
    state.forced_dice[:] = [5]
    act(state, "breach wall 0", (0, 0))
    assert state.pending is None and state.forced_dice == []
    state = _breach_position([("soldier", (0, 0)), ("cavalry", (0, 0))])
    act(state, "activate cavalry", (0, 0))
    act(state, "end activation")
    state.forced_dice[:] = [5]
    act(state, "breach wall 0", (0, 0))
    assert state.pending is None and state.forced_dice == []
    assert state.u_flags[_unit_of(state, 0, SOLDIER)] & BREACHED
    # An active unit is the one of its type offered, and may be chosen.
    state = _breach_position([("soldier", (0, 0)), ("cavalry", (0, 0))])
    act(state, "activate soldier", (0, 0))
    act(state, "breach wall 0", (0, 0))
    assert {v for v, _ in legal(state)} == {"choose soldier", "choose cavalry"}
    state.forced_dice[:] = [1]
    act(state, "choose soldier", (0, 0))
    assert wall_owner(state, (0, 0), 0) == -1 and state.active.unit == _unit_of(state, 0, SOLDIER)


def test_wall_closing_the_ring_forces_surrender():
    """T4/T6 in the position where v1 needed a wall to close the ring: a wall stands on an edge of
    a hex the builder holds, where no enemy unit may go anyway, so it blocks no escape; in v1 the
    ring here, closed by the victim's own move, waited for the surrounding player's next act (the
    wall). Rules v2 (T6): the ring a player closes around his own units surrenders at once, after
    that decision, to the opponent holding the most hexes around them; and (T4) surrender is
    checked over the whole board after every decision, the wall included, so a wall built next to
    the hex afterwards finds nobody ringed.

    Player 1's two soldiers stand at (0,0), ringed by player 0's soldiers on five sides; the
    sixth side, (1,0), is a pocket between mountains. One of them steps into the pocket,
    filling it (3 units), and the other has no way out."""
    gmap = make_map(2, mountains=[(2, 0), (2, -1), (1, 1)])
    sc = Scenario(gmap, phase="battle", turn_player=1, gold=0, silver=6)
    sc.development(0, "camp", (-3, 0))  # somewhere to hold prisoners
    for h in ((1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        sc.unit(0, "soldier", h)
    mover = sc.unit(1, "soldier", (0, 0))  # the two are alike: the lowest-numbered is activated
    trapped = sc.unit(1, "soldier", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    idx = state.gmap.board.index
    act(state, "activate soldier", (0, 0))
    assert state.active.unit == mover
    act(state, "move", (1, 0))
    assert state.occ[idx[(1, 0)]] == 3
    # Sealed in by its own player's move: it surrenders at once to player 0, who holds five of
    # the six hexes around it (T6), held at his camp; he takes the Battle tokens (a soldier).
    assert state.u_where[trapped] == PRISONER and state.u_holder[trapped] == 0
    assert state.u_cell[trapped] == idx[(-3, 0)]
    assert state.tokens == [1, 0]
    ev = [e for e in state.events if e["event"] == "surrender"]
    assert len(ev) == 1 and ev[0]["cell"] == idx[(0, 0)] and ev[0]["units"] == [trapped]
    assert ev[0]["owner"] == 1 and ev[0]["player"] == 0
    # The three in the pocket can step back to (0,0), now empty: they do not surrender.
    pocket = state.units_at(idx[(1, 0)], 1)
    assert len(pocket) == 3 and all(state.u_where[u] == ON_BOARD for u in pocket)
    act(state, "end turn")
    assert state.current_player == 0

    # Walls far away and on the edge of a hex beside it: checked, nobody more surrenders.
    act(state, "build wall 3", (-3, 0))
    act(state, "build wall 3", (-1, 0))
    assert len([e for e in state.events if e["event"] == "surrender"]) == 1 and state.tokens == [1, 0]
    assert all(state.u_where[u] == ON_BOARD for u in pocket)

    # With the option off, nobody surrenders.
    sc.state.config = RulesConfig(surrender=False)
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    act(state, "move", (1, 0))
    assert state.u_where[trapped] == ON_BOARD
    act(state, "end turn")
    act(state, "build wall 3", (-1, 0))
    assert state.u_where[trapped] == ON_BOARD and state.tokens == [0, 0]

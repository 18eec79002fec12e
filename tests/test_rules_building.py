"""Building developments, units, ships and artillery (docs/rules.md rows H1, OC2, U4, U6-U10,
F2, F3, C1), and the surrender a development or artillery may bring (T4)."""

from __future__ import annotations

from conftest import make_map, refused, verbs

from vigtavl_env.engine import RulesConfig
from vigtavl_env.engine.hexgrid import DIRECTIONS
from vigtavl_env.engine.scenario import Scenario, act, legal
from vigtavl_env.engine.state import LOADED, ON_BOARD, PRISONER
from vigtavl_env.engine.stats import ARCHER, SOLDIER

# Sea east of the centre: (1,0) is coastal land with the sea hexes (2,0) and (2,-1) next to it.
SEA = [(2, 0), (2, -1), (3, -1), (3, 0)]
UNIT_VERBS = {f"build {k}" for k in ("soldier", "archer", "cavalry", "caravel", "freighter", "galleon")}
BUILD_VERBS = UNIT_VERBS | {"build artillery", "build camp", "build fort", "build castle"} | {
    f"build wall {d}" for d in range(6)}


def _around(at, with_centre=True):
    out = {(at[0] + dq, at[1] + dr) for dq, dr in DIRECTIONS}
    return out | {at} if with_centre else out


def sites(state, verb):
    return {at for v, at in legal(state) if v == verb}


def test_no_building_on_mountains():
    """H1: "mountain hexes can not be occupied or built on"."""
    sc = Scenario(make_map(2, mountains=[(1, 0), (0, 1)]), phase="build", gold=6)
    sc.development(0, "camp", (0, 0))
    sc.unit(0, "soldier", (1, -1))
    state = sc.build()
    for verb in ("build camp", "build fort", "build castle", "build soldier", "build archer",
                 "build artillery"):
        found = sites(state, verb)
        assert found, verb
        assert (1, 0) not in found and (0, 1) not in found, verb
        assert refused(state, verb, (1, 0))
    # The land around the camp is open, the two mountains are not.
    assert sites(state, "build soldier") == _around((0, 0)) - {(1, 0), (0, 1)}


def test_development_occupancy():
    """OC2: a camp counts 1 towards its hex's occupancy, a fort and artillery 2, a castle 3."""
    def state_with(dev, soldiers, artillery=False, at=(0, 0)):
        sc = Scenario(make_map(2), phase="build", gold=20)
        sc.development(0, "camp", (-3, 0))  # a development elsewhere, for artillery sites
        if dev:
            sc.development(0, dev, at)
        if artillery:
            sc.artillery(0, at)
        for _ in range(soldiers):
            sc.unit(0, "soldier", at)
        return sc.build()

    def cell(s):
        return s.gmap.board.index[(0, 0)]

    # Camp: room for two units, not three.
    s = state_with("camp", 1)
    assert s.occ[cell(s)] == 2 and (0, 0) in sites(s, "build soldier")
    s = state_with("camp", 2)
    assert s.occ[cell(s)] == 3 and (0, 0) not in sites(s, "build soldier")
    assert refused(s, "build soldier", (0, 0))
    # Fort: room for one unit.
    s = state_with("fort", 0)
    assert s.occ[cell(s)] == 2 and (0, 0) in sites(s, "build soldier")
    s = state_with("fort", 1)
    assert s.occ[cell(s)] == 3 and (0, 0) not in sites(s, "build soldier")
    # Castle: no unit fits on its hex; the hexes around it are the places to build.
    s = state_with("castle", 0)
    assert s.occ[cell(s)] == 3
    assert sites(s, "build soldier") & _around((0, 0)) == _around((0, 0), with_centre=False)
    assert (0, 0) not in sites(s, "build artillery")
    # Artillery counts 2: with a camp it fills the hex.
    s = state_with("camp", 0, artillery=True)
    assert s.occ[cell(s)] == 3 and (0, 0) not in sites(s, "build soldier")
    s = state_with(None, 1, artillery=True, at=(-2, 0))
    assert s.occ[s.gmap.board.index[(-2, 0)]] == 3 and (-2, 0) not in sites(s, "build soldier")
    # Developments on occupied hexes: 2 soldiers leave room for a camp only; 1 for a fort.
    s = state_with(None, 2)
    assert (0, 0) in sites(s, "build camp")
    assert (0, 0) not in sites(s, "build fort") and (0, 0) not in sites(s, "build castle")
    s = state_with(None, 1)
    assert (0, 0) in sites(s, "build fort") and (0, 0) not in sites(s, "build castle")
    assert refused(s, "build castle", (0, 0))
    # A built development takes its occupancy at once.
    s = state_with(None, 0)
    act(s, "build fort", (-2, 0))  # next to the camp at (-3, 0)
    assert s.occ[s.gmap.board.index[(-2, 0)]] == 2
    # A unit may not end a move on its own castle's hex (it is full).
    sc = Scenario(make_map(2), phase="build")
    sc.development(0, "castle", (0, 0))
    sc.unit(0, "soldier", (-1, 0))
    s = sc.build()
    act(s, "activate soldier", (-1, 0))
    moves = sites(s, "move")
    assert (0, 0) not in moves and (-1, 1) in moves


def _limit_position(castle_owner=None, gold=30, config=None):
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=gold, config=config)
    sc.development(0, "camp", (1, 0))  # coastal
    if castle_owner is not None:
        sc.development(castle_owner, "castle", (-3, 2))
    return sc


def test_unit_build_limit_two_or_three_with_castle():
    """U6/C1: 2 knights, 2 ships or 1 of each a turn; 3 while the player owns a castle."""
    for first, second in (("build soldier", "build caravel"), ("build soldier", "build archer"),
                          ("build caravel", "build freighter")):
        state = _limit_position().build()
        for verb in (first, second):
            act(state, verb, (2, 0) if verb in ("build caravel", "build freighter") else (0, 0))
        assert not verbs(state) & UNIT_VERBS, (first, second)
        assert refused(state, "build cavalry", (1, 1))
        assert refused(state, "build galleon", (2, -1))
        # Artillery is not a combat unit and has its own limit; developments and walls go on.
        assert {"build artillery", "build camp", "build wall 0"} <= verbs(state)
        act(state, "build artillery", (1, 1))

    # An opponent's castle does not help.
    state = _limit_position(castle_owner=1).build()
    act(state, "build soldier", (0, 0))
    act(state, "build caravel", (2, 0))
    assert not verbs(state) & UNIT_VERBS

    # With a castle of his own: three units, then no more.
    state = _limit_position(castle_owner=0).build()
    act(state, "build soldier", (0, 0))
    act(state, "build caravel", (2, 0))
    assert verbs(state) & UNIT_VERBS
    act(state, "build archer", (0, 1))
    assert not verbs(state) & UNIT_VERBS
    assert refused(state, "build soldier", (1, -1))

    # "Has built a castle" means owns one now: a castle built this turn counts at once.
    state = _limit_position(gold=30).build()
    act(state, "build soldier", (0, 0))
    act(state, "build caravel", (2, 0))
    assert not verbs(state) & UNIT_VERBS
    act(state, "build castle", (0, 1))
    assert state.gold[0] == 30 - 1 - 1 - 3
    assert "build archer" in verbs(state)
    act(state, "build archer", (1, 1))
    assert not verbs(state) & UNIT_VERBS

    # The count starts again every turn.
    state = _limit_position().build()
    act(state, "build soldier", (0, 0))
    act(state, "build soldier", (0, 1))
    act(state, "end turn")
    act(state, "end turn")
    assert state.turn_player == 0 and UNIT_VERBS <= verbs(state)


def test_two_per_turn_rows_limit_each_type():
    """U1: the "2/turn" rows limit each type to 2 a turn, even with a castle's third build."""
    state = _limit_position(castle_owner=0).build()
    act(state, "build soldier", (0, 0))
    act(state, "build soldier", (0, 1))
    assert "build soldier" not in verbs(state)
    assert {"build archer", "build cavalry", "build caravel"} <= verbs(state)
    state = _limit_position(castle_owner=0).build()
    act(state, "build caravel", (2, 0))
    act(state, "build caravel", (2, -1))
    assert "build caravel" not in verbs(state) and "build freighter" in verbs(state)


def test_galleon_and_freighter_limits():
    """U7: Galley 1, Freighter 3, Artillery 1 are pieces in play at once (limit_scope "in_play")."""
    # Galleon: one in play closes it; none in play opens it, for one.
    sc = _limit_position()
    g = sc.unit(0, "galleon", (3, 0))
    state = sc.build()
    assert "build galleon" not in verbs(state)
    assert refused(state, "build galleon", (2, 0))
    state.remove(g)  # sunk: it is no longer in play
    assert "build galleon" in verbs(state)
    act(state, "build galleon", (2, 0))
    assert "build galleon" not in verbs(state)
    act(state, "end turn")
    act(state, "end turn")
    assert "build galleon" not in verbs(state)  # not a per-turn limit

    # Freighters: three in play close it; two leave room for one more.
    sc = _limit_position()
    for _ in range(2):
        sc.unit(0, "freighter", (3, -1))
    state = sc.build()
    assert "build freighter" in verbs(state)
    act(state, "build freighter", (2, 0))
    assert "build freighter" not in verbs(state)
    assert "build caravel" in verbs(state)  # the turn's second unit may still be built
    sc = _limit_position()
    for _ in range(3):
        sc.unit(0, "freighter", (3, -1))
    assert "build freighter" not in verbs(sc.build())

    # Artillery: one on the board closes it.
    sc = _limit_position()
    sc.artillery(0, (0, 0))
    assert "build artillery" not in verbs(sc.build())
    state = _limit_position().build()
    act(state, "build artillery", (1, 1))
    assert "build artillery" not in verbs(state)

    # limit_scope="per_turn" reads the same numbers as builds per turn.
    cfg = RulesConfig(limit_scope="per_turn")
    sc = _limit_position(config=cfg)
    sc.unit(0, "galleon", (3, 0))
    sc.artillery(0, (0, 0))
    for _ in range(3):
        sc.unit(0, "freighter", (3, -1))
    state = sc.build()
    assert {"build galleon", "build freighter", "build artillery"} <= verbs(state)
    act(state, "build galleon", (2, 0))
    act(state, "build artillery", (1, 1))
    assert "build galleon" not in verbs(state) and "build artillery" not in verbs(state)
    assert "build freighter" in verbs(state)


def test_build_knight_onto_freighter():
    """U4: a freighter next to the player's developed hex takes knights built straight aboard."""
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.development(0, "camp", (1, 0))
    f = sc.unit(0, "freighter", (2, 0))
    sc.unit(0, "freighter", (3, 0))  # not next to a developed hex
    state = sc.build()
    for kind in ("soldier", "archer", "cavalry"):
        found = sites(state, f"build {kind}")
        assert (2, 0) in found and (3, 0) not in found
        assert (2, -1) not in found  # sea without a freighter of his
    cell = state.gmap.board.index[(2, 0)]
    act(state, "build soldier", (2, 0))
    act(state, "build archer", (2, 0))
    assert sorted(state.u_type[x] for x in state.cargo(f)) == [SOLDIER, ARCHER]
    assert all(state.u_where[x] == LOADED and state.u_cell[x] == cell for x in state.cargo(f))
    assert state.occ[cell] == 1  # the cargo does not count towards the hex
    assert state.gold[0] == 10 - 1 - 2
    assert refused(state, "build soldier", (3, 0))

    # A full freighter takes no more.
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.development(0, "camp", (1, 0))
    f = sc.unit(0, "freighter", (2, 0))
    for _ in range(3):
        sc.unit(0, "soldier", (2, 0), aboard=f)
    state = sc.build()
    assert (2, 0) not in sites(state, "build soldier")

    # Next to an opponent's developed hex only: not his freighter's building site.
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.development(1, "camp", (1, 0))
    sc.development(0, "camp", (-3, 0))
    sc.unit(0, "freighter", (2, 0))
    state = sc.build()
    assert (2, 0) not in sites(state, "build soldier")
    assert refused(state, "build soldier", (2, 0))


def test_land_units_built_near_development():
    """U8: "Built land units are placed on or adjacent to any developed hex" (his own)."""
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.development(0, "camp", (0, 0))
    sc.development(0, "fort", (-3, 2))
    sc.development(1, "camp", (3, -2))  # the opponent's: no help
    sc.unit(1, "soldier", (1, 0))  # the opponent's hex next to the camp
    state = sc.build()
    expected = (_around((0, 0)) | _around((-3, 2))) - {(1, 0)}
    for kind in ("soldier", "archer", "cavalry"):
        assert sites(state, f"build {kind}") == expected
    assert refused(state, "build soldier", (0, 2))  # two steps from the camp
    assert refused(state, "build soldier", (3, -1))  # next to the opponent's camp
    assert refused(state, "build soldier", (1, 0))
    act(state, "build cavalry", (0, 1))
    u = len(state.u_owner) - 1
    assert state.u_owner[u] == 0 and state.u_where[u] == ON_BOARD
    assert state.gmap.board.coords[state.u_cell[u]] == (0, 1)
    # Without a development there is nowhere to build units.
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.unit(0, "soldier", (0, 0))
    assert not verbs(sc.build()) & UNIT_VERBS


def test_ships_built_next_to_coastal_development():
    """U9: "Built ships are placed on any sea hex adjacent to a player's coastal development"."""
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.development(0, "camp", (1, 0))  # coastal: (2,0) and (2,-1) are sea
    sc.development(0, "camp", (-2, 0))  # inland
    state = sc.build()
    for kind in ("caravel", "freighter", "galleon"):
        assert sites(state, f"build {kind}") == {(2, 0), (2, -1)}
    assert refused(state, "build caravel", (3, 0))  # sea, but not next to the camp
    assert refused(state, "build caravel", (1, 1))  # land
    act(state, "build galleon", (2, -1))
    assert state.u_cell[-1] == state.gmap.board.index[(2, -1)]

    # An opponent's ship holds one of the two hexes.
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.development(0, "camp", (1, 0))
    sc.unit(1, "caravel", (2, -1))
    assert sites(sc.build(), "build caravel") == {(2, 0)}

    # Only inland developments: no ships at all ("players must have an encampment, fort or
    # castle on the coast").
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.development(0, "castle", (-2, 0))
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    assert not verbs(state) & {"build caravel", "build freighter", "build galleon"}


def test_building_respects_occupancy():
    """U10: "Building units must respect maximum occupancy rule"; freighter cargo does not count."""
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.development(0, "camp", (1, 0))
    for _ in range(3):
        sc.unit(0, "soldier", (0, 0))
    for _ in range(2):
        sc.unit(0, "soldier", (1, 1))
    for _ in range(3):
        sc.unit(0, "caravel", (2, 0))
    f = sc.unit(0, "freighter", (2, -1))
    sc.unit(0, "caravel", (2, -1))
    sc.unit(0, "caravel", (2, -1))
    state = sc.build()
    knight_sites = sites(state, "build soldier")
    assert (0, 0) not in knight_sites and (1, 1) in knight_sites
    assert refused(state, "build soldier", (0, 0))
    assert sites(state, "build caravel") == set()  # both sea hexes hold 3 ships
    assert "build artillery" in verbs(state) and (1, 1) not in sites(state, "build artillery")
    # The freighter's hex is full of ships, but a knight still goes aboard.
    assert (2, -1) in knight_sites
    act(state, "build archer", (2, -1))
    assert state.u_type[state.cargo(f)[0]] == ARCHER
    act(state, "build soldier", (1, 1))
    assert state.occ[state.gmap.board.index[(1, 1)]] == 3


def test_development_sites():
    """F2: build "on any hex that is occupied by or adjacent to one of their units or already
    developed hexes" (land, no development there, not another player's, room for it)."""
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10)
    sc.unit(0, "soldier", (-2, 0))
    sc.development(0, "camp", (-1, 2))
    sc.unit(0, "caravel", (2, 0))  # a ship counts too: the land next to it
    sc.unit(1, "soldier", (-2, 1))  # opponent's hex next to both
    sc.development(1, "camp", (-3, 0))  # opponent's development next to the soldier
    state = sc.build()
    expected = (_around((-2, 0)) | _around((-1, 2), with_centre=False) | {(1, 0), (1, 1), (2, 1)}) - {
        (-2, 1), (-3, 0)}
    assert sites(state, "build camp") == expected
    assert sites(state, "build fort") == expected
    assert refused(state, "build camp", (-1, 2))  # already developed
    assert refused(state, "build camp", (0, 0))  # two steps from everything of his
    assert refused(state, "build camp", (2, -1))  # sea
    assert refused(state, "build camp", (-2, 1))  # the opponent's hex
    act(state, "build castle", (-1, 0))
    assert state.dev_owner[state.gmap.board.index[(-1, 0)]] == 0
    # New developments count as developed hexes at once.
    assert {(0, 0), (0, -1)} <= sites(state, "build camp")

    # Occupancy: a hex with 2 of his units takes a camp only; with 3, nothing.
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (0, 0))
    for _ in range(3):
        sc.unit(0, "soldier", (-2, 0))
    state = sc.build()
    assert (0, 0) in sites(state, "build camp") and (0, 0) not in sites(state, "build fort")
    assert (-2, 0) not in sites(state, "build camp")


def test_no_building_during_movement():
    """F3: "a player can not interrupt a unit's movement to build" (before or after only)."""
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=10, silver=10)
    sc.development(0, "camp", (1, 0))
    f = sc.unit(0, "freighter", (2, 0))
    sc.unit(0, "soldier", (2, 0), aboard=f)
    sc.unit(0, "soldier", (1, 1))
    sc.unit(0, "soldier", (-2, 0))
    state = sc.build()
    assert "build camp" in verbs(state)

    # A freighter moving in legs: no building until its activation ends.
    act(state, "activate freighter", (2, 0))
    assert "build camp" in verbs(state)  # before its movement
    act(state, "move", (3, 0))
    assert state.active is not None and state.active.move_left == 4
    assert not verbs(state) & BUILD_VERBS
    assert not any(v.startswith("relocate") or v.startswith("discharge") for v in verbs(state))
    assert refused(state, "build camp", (0, 0))
    act(state, "end activation")
    assert "build camp" in verbs(state) and "build soldier" in verbs(state)

    # A soldier stepping aboard a freighter may still land: its movement is not over.
    sc2 = Scenario(make_map(2, sea=SEA), phase="build", gold=10, silver=10)
    sc2.development(0, "camp", (1, 0))
    sc2.unit(0, "freighter", (2, 0))
    sc2.unit(0, "soldier", (1, 1))
    s2 = sc2.build()
    act(s2, "activate soldier", (1, 1))
    act(s2, "move", (2, 0))
    assert not verbs(s2) & BUILD_VERBS
    assert refused(s2, "build camp", (0, 1))

    # A soldier whose move is over and has nothing left to do: its activation is over (R2), and
    # building is open.
    act(state, "activate soldier", (-2, 0))
    act(state, "move", (-1, 0))
    assert state.active is None
    assert "build camp" in verbs(state)

    # A soldier whose move is over but may still attack (battle phase): building is open again
    # while it is still active, and it may attack afterwards.
    sc3 = Scenario(make_map(2, sea=SEA), phase="battle", gold=10, silver=10)
    sc3.development(0, "camp", (1, 0))
    sc3.unit(0, "soldier", (-2, 0))
    sc3.unit(1, "soldier", (-1, -1))
    s3 = sc3.build()
    act(s3, "activate soldier", (-2, 0))
    act(s3, "move", (-1, 0))
    assert s3.active is not None and (-1, -1) in {h for v, h in legal(s3) if v == "attack"}
    assert "build camp" in verbs(s3)
    act(s3, "build camp", (0, 0))
    assert s3.dev_owner[s3.gmap.board.index[(0, 0)]] == 0
    assert s3.active is not None and "attack" in verbs(s3)


def test_development_closing_the_ring_forces_surrender():
    """T4: a development (or artillery) built on an enemy's last free neighbour closes the ring:
    the enemy units there, with no way out, surrender at once (captured: the builder has a
    development to hold them, the new one if need be)."""
    ring = ((1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # five sides of (0,0); (1,0) is free

    def position(config=None, camp=False):
        sc = Scenario(make_map(2), phase="battle", gold=10, config=config)
        for h in ring:
            sc.unit(0, "soldier", h)
        if camp:
            sc.development(0, "camp", (2, 0))  # next to (1,0), for the artillery
        trapped = [sc.unit(1, "soldier", (0, 0)), sc.unit(1, "archer", (0, 0))]
        return sc.build(), trapped

    state, trapped = position()
    idx = state.gmap.board.index
    assert (1, 0) in {h for v, h in legal(state) if v == "build camp"}
    # A development elsewhere leaves the way out open.
    act(state, "build camp", (-2, 0))
    assert all(state.u_where[u] == ON_BOARD for u in trapped) and state.tokens == [0, 0]
    # A fort on (1,0), the last free hex around them: they surrender.
    act(state, "build fort", (1, 0))
    assert [state.u_where[u] for u in trapped] == [PRISONER, PRISONER]
    assert all(state.u_holder[u] == 0 for u in trapped)
    assert state.tokens[0] == 1 + 2  # a soldier and an archer
    ev = [e for e in state.events if e["event"] == "surrender"]
    assert len(ev) == 1 and ev[0]["cell"] == idx[(0, 0)] and sorted(ev[0]["units"]) == sorted(trapped)
    assert state.cell_player[idx[(0, 0)]] == -1

    # With no development before, the new one holds the prisoners.
    state, trapped = position()
    act(state, "build camp", (1, 0))
    assert all(state.u_where[u] == PRISONER and state.u_cell[u] == idx[(1, 0)] for u in trapped)

    # Artillery closes it the same way.
    state, trapped = position(camp=True)
    assert (1, 0) in {h for v, h in legal(state) if v == "build artillery"}
    act(state, "build artillery", (1, 0))
    assert all(state.u_where[u] == PRISONER and state.u_cell[u] == idx[(2, 0)] for u in trapped)

    # Option surrender off: they stay.
    state, trapped = position(config=RulesConfig(surrender=False))
    act(state, "build camp", (1, 0))
    assert all(state.u_where[u] == ON_BOARD for u in trapped)

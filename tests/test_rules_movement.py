"""Scenario tests for movement: terrain, occupancy, passing through, freighters, winds, towing.

Rows H1, H2, W1-W4, OC1, OC4, U3, U15, U16 and U29 of docs/rules.md.

Board geometry used below (2-player board, radius 5, outer ring sea): the big hexagon's six
sides are top (r = -5), upper right (q = 5), lower right (q + r = 5), bottom (r = 5), lower left
(q = -5) and upper left (q + r = -5), in clockwise order on screen.
"""

from __future__ import annotations

from conftest import at, hexes, make_map, refused

from vigtavl_env.engine.hexgrid import distance
from vigtavl_env.engine.scenario import Scenario, act, legal
from vigtavl_env.engine.state import LOADED, MOVE_IN_PROGRESS, ON_BOARD


def move_events(state):
    return [e for e in state.events if e["event"] == "move"]


def test_mountains_block_movement():
    """H1: mountain hexes can not be occupied, and movement cannot cross them."""
    # Every neighbour of (0,0) but the west one is a mountain.
    mountains = [(1, 0), (1, -1), (0, -1), (-1, 1), (0, 1)]
    sc = Scenario(make_map(mountains=mountains), phase="build")
    s = sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    moves = hexes(state, "move")
    assert not moves & set(mountains)
    assert (-1, 0) in moves
    # (2,0) is two steps away over the mountain, much further around it: out of a soldier's 3.
    assert (2, 0) not in moves
    # Every destination is reachable in 3 steps that avoid the mountains.
    assert all(distance(h, (-1, 0)) <= 2 for h in moves)
    refused(state, "move", (1, 0))
    refused(state, "move", (2, 0))
    act(state, "move", (-1, 0))
    assert at(state, s) == (-1, 0)


def test_ships_stay_at_sea_knights_on_land():
    """H2: knights stand on land (or aboard freighters); ships stay at sea."""
    sc = Scenario(make_map(), phase="build")
    sc.unit(0, "caravel", (5, -2))
    sc.unit(0, "cavalry", (4, -2))
    state = sc.build()
    gmap = state.gmap
    idx = gmap.board.index
    act(state, "activate caravel", (5, -2))
    ship_moves = hexes(state, "move")
    assert ship_moves and all(gmap.is_sea[idx[h]] for h in ship_moves)
    assert (4, -2) not in ship_moves and (4, -1) not in ship_moves
    refused(state, "move", (4, -1))
    act(state, "end activation")
    act(state, "activate cavalry", (4, -2))
    land_moves = hexes(state, "move")
    # No freighter of his anywhere: a knight never steps onto the sea.
    assert land_moves and all(gmap.is_land[idx[h]] for h in land_moves)
    refused(state, "move", (5, -3))


def test_embarking_costs_one_movement():
    """U3: stepping onto its own freighter's sea hex costs a knight 1 movement; it is aboard."""
    sc = Scenario(make_map(), phase="build")
    f = sc.unit(0, "freighter", (5, -1))
    near = sc.unit(0, "archer", (4, 0))   # next to the freighter
    mid = sc.unit(0, "archer", (3, 0))    # 2 steps from it
    far = sc.unit(0, "archer", (2, 0))    # 3 steps from it
    state = sc.build()
    # Archers move 2: the two-step archer can just reach the freighter, the three-step one cannot.
    act(state, "activate archer", (2, 0))
    assert (5, -1) not in hexes(state, "move")
    act(state, "end activation")
    act(state, "activate archer", (3, 0))
    assert (5, -1) in hexes(state, "move")
    act(state, "end activation")
    act(state, "activate archer", (4, 0))
    assert (5, -1) in hexes(state, "move")
    act(state, "move", (5, -1))
    assert state.u_where[near] == LOADED and state.u_carrier[near] == f
    assert at(state, near) == (5, -1)
    assert move_events(state)[-1]["cost"] == 1
    top = state.active
    assert top.unit == near and top.move_left == 1 and top.move == MOVE_IN_PROGRESS
    # One movement left: it may step back ashore next to the freighter, but no further.
    ashore = hexes(state, "move")
    assert (4, -1) in ashore and (3, -1) not in ashore
    act(state, "move", (4, -1))
    assert state.u_where[near] == ON_BOARD and at(state, near) == (4, -1)
    assert state.u_where[mid] == ON_BOARD and state.u_where[far] == ON_BOARD


def test_embarking_needs_room_aboard():
    """U3/OC4: a full freighter (3 knights) takes no more knights."""
    sc = Scenario(make_map(), phase="build")
    f = sc.unit(0, "freighter", (5, -1))
    for _ in range(3):
        sc.unit(0, "soldier", None, aboard=f)
    sc.unit(0, "soldier", (4, 0))
    state = sc.build()
    act(state, "activate soldier", (4, 0))
    assert (5, -1) not in hexes(state, "move")
    refused(state, "move", (5, -1))


def test_occupancy_limit_on_moves():
    """OC1: a move may not end on a hex that would then hold more than 3."""
    sc = Scenario(make_map(), phase="build")
    sc.unit(0, "soldier", (0, 0))
    for _ in range(3):
        sc.unit(0, "soldier", (1, 0))          # full: 3 units
    sc.development(0, "camp", (0, 1))
    sc.unit(0, "soldier", (0, 1))
    sc.unit(0, "soldier", (0, 1))              # camp 1 + 2 units = 3
    sc.artillery(0, (-1, 0))
    sc.unit(0, "soldier", (-1, 0))             # artillery 2 + 1 unit = 3
    sc.unit(0, "soldier", (0, -1))
    sc.unit(0, "soldier", (0, -1))             # 2 units: room for one more
    sc.development(0, "camp", (-1, 1))         # camp alone: room for two
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    moves = hexes(state, "move")
    for full in ((1, 0), (0, 1), (-1, 0)):
        assert full not in moves
        refused(state, "move", full)
    assert (0, -1) in moves and (-1, 1) in moves
    act(state, "move", (0, -1))
    assert state.occ[state.gmap.board.index[(0, -1)]] == 3


def test_cargo_does_not_count():
    """OC4: knights aboard a freighter do not count towards the hex; the freighter does."""
    sc = Scenario(make_map(), phase="build")
    f = sc.unit(0, "freighter", (5, -2))
    for kind in ("soldier", "archer", "cavalry"):
        sc.unit(0, kind, None, aboard=f)
    sc.unit(0, "caravel", (5, -2))
    g = sc.unit(0, "galleon", (5, -4))
    state = sc.build()
    # Freighter + caravel = 2, though 5 pieces stand on the hex counting the cargo.
    assert state.occ[state.gmap.board.index[(5, -2)]] == 2
    act(state, "activate galleon", (5, -4))
    assert (5, -2) in hexes(state, "move")
    act(state, "move", (5, -2))
    assert at(state, g) == (5, -2)
    assert len(state.cargo(f)) == 3


def test_pass_through_own_full_hex():
    """U15: units move through hexes of their own units, even full ones, but stop only where
    there is room."""
    sc = Scenario(make_map(), phase="build")
    a = sc.unit(0, "archer", (0, 0))
    for _ in range(3):
        sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate archer", (0, 0))
    moves = hexes(state, "move")
    # (2,0) is 2 steps away only through the full hex (1,0); an archer moves 2.
    assert (1, 0) not in moves
    assert (2, 0) in moves
    act(state, "move", (2, 0))
    assert at(state, a) == (2, 0)


def test_build_phase_pass_through_enemy():
    """U16: in the build phase units pass through but never stop on another player's hex;
    in the battle phase (U17) they cannot pass through it at all."""
    def scenario(phase):
        sc = Scenario(make_map(), phase=phase)
        a = sc.unit(0, "archer", (0, 0))
        sc.unit(1, "soldier", (1, 0))
        sc.development(0, "camp", (-3, 0))
        return sc.build(), a

    state, a = scenario("build")
    act(state, "activate archer", (0, 0))
    moves = hexes(state, "move")
    assert (1, 0) not in moves
    assert (2, 0) in moves  # only reachable through (1,0) with 2 movement
    refused(state, "move", (1, 0))
    act(state, "move", (2, 0))
    assert at(state, a) == (2, 0)

    state, a = scenario("battle")
    act(state, "activate archer", (0, 0))
    moves = hexes(state, "move")
    assert (2, 0) not in moves
    refused(state, "move", (2, 0))


def freighter_after_legs(path, wind=1):
    """A freighter activated at path[0] that has moved in legs to each later hex of path."""
    sc = Scenario(make_map(), phase="build", wind=wind)
    f = sc.unit(0, "freighter", path[0])
    state = sc.build()
    act(state, "activate freighter", path[0])
    for h in path[1:]:
        act(state, "move", h)  # a freighter may move in legs
    return state, f


def test_wind_carries_ship_to_next_side():
    """W1, W3: from a border sea hex a ship rides the wind to any border sea hex of the next side
    (clockwise here) and ends its move there, on the board."""
    # 3 steps along the top side (r = -5) leave the freighter 2 movement: one ride, no more.
    state, f = freighter_after_legs([(4, -5), (1, -5)])
    assert state.active.move_left == 2
    moves = hexes(state, "move")
    # Every border sea hex of the next side clockwise (upper right, q = 5); by sea the nearest
    # of them is 4 steps away.
    upper_right = {(5, r) for r in range(-5, 1)}
    assert upper_right <= moves
    # Not the side after it (lower right), nor the previous side (upper left) beyond 2 steps by sea.
    assert not moves & {(4, 1), (3, 2), (2, 3), (1, 4)}
    assert not moves & {(-2, -3), (-3, -2), (-4, -1), (-5, 0)}
    act(state, "move", (5, -1))
    assert at(state, f) == (5, -1) and state.u_where[f] == ON_BOARD
    assert state.gmap.is_sea[state.u_cell[f]]
    assert move_events(state)[-1]["cost"] == 2
    # 2 - 2 = 0 movement left: the freighter has nothing left to do, its activation is over.
    assert state.active is None
    assert state.events[-1]["event"] == "end_activation" and state.events[-1]["unit"] == f


def test_wind_needs_two_movement():
    """W2: entering and leaving the winds costs 1 movement each; a ship without 2 spare
    movement cannot ride them."""
    # Legs (1,-5) -> (3,-5) -> (1,-5) cost 4 of the freighter's 5: 1 movement left.
    state, f = freighter_after_legs([(1, -5), (3, -5), (1, -5)])
    assert state.active.move_left == 1
    moves = hexes(state, "move")
    assert moves == {(0, -5), (2, -5)}  # only a plain step
    refused(state, "move", (5, -1))

    # With 2 left the same hex rides the wind (previous test); here a caravel with 6 left
    # arrives at (5,-1) having spent exactly 2.
    sc = Scenario(make_map(), phase="build", wind=1)
    c = sc.unit(0, "caravel", (1, -5))
    state = sc.build()
    act(state, "activate caravel", (1, -5))
    act(state, "move", (5, -1))  # 8 steps by sea, more than a caravel's 6
    assert at(state, c) == (5, -1)
    assert move_events(state)[-1]["cost"] == 2


def test_wind_direction_matters():
    """W4: ships ride the winds only in their direction, clockwise or counter-clockwise."""
    def galleon_moves(wind):
        sc = Scenario(make_map(), phase="build", wind=wind)
        sc.unit(0, "galleon", (2, -5))     # top side, 4 movement
        state = sc.build()
        act(state, "activate galleon", (2, -5))
        return hexes(state, "move")

    cw, ccw = galleon_moves(1), galleon_moves(-1)
    # Clockwise the next side is the upper right; counter-clockwise the upper left.
    # By sea (5,-1) is 7 steps away and (-4,-1) 6: both beyond a galleon's 4.
    assert (5, -1) in cw and (5, -1) not in ccw
    assert (-4, -1) in ccw and (-4, -1) not in cw


def test_knight_tows_artillery():
    """U29: a knight moves the artillery on its hex with it, within its own movement range;
    the destination needs room for both."""
    sc = Scenario(make_map(), phase="build")
    s = sc.unit(0, "soldier", (0, 0))
    sc.artillery(0, (0, 0))
    sc.unit(0, "soldier", (0, 2))  # (0,2) has room for the knight but not for the artillery
    state = sc.build()
    idx = state.gmap.board.index
    act(state, "activate soldier", (0, 0))
    tows = hexes(state, "move with artillery")
    assert (3, 0) in tows           # 3 = a soldier's movement
    assert (4, 0) not in tows       # beyond it
    assert (0, 2) not in tows and (0, 2) in hexes(state, "move")
    refused(state, "move with artillery", (4, 0))
    act(state, "move with artillery", (3, 0))
    assert at(state, s) == (3, 0)
    assert state.art_owner[idx[(3, 0)]] == 0
    assert state.art_owner[idx[(0, 0)]] == -1
    assert state.occ[idx[(3, 0)]] == 3 and state.occ[idx[(0, 0)]] == 0


def test_artillery_towed_only_by_knight_on_its_hex():
    """U29: only a knight standing on the artillery's hex can move it."""
    sc = Scenario(make_map(), phase="build")
    sc.unit(0, "soldier", (1, 0))
    sc.artillery(0, (0, 0))
    state = sc.build()
    act(state, "activate soldier", (1, 0))
    assert hexes(state, "move with artillery") == set()
    refused(state, "move with artillery", (2, 0))


def test_wind_ridden_once_per_move():
    """W1: the wind carries a ship "from one edge of the map to the next adjacent edge": once a move."""
    gmap = make_map()
    board = gmap.board
    sc = Scenario(gmap, phase="build", wind=1)
    start = board.sides[0][len(board.sides[0]) // 2]  # middle of side 0, not a corner
    sc.unit(0, "caravel", board.coords[start])
    state = sc.build()
    act(state, "activate caravel", board.coords[start])
    stops = {at for verb, at in legal(state) if verb == "move"}
    next_side = {board.coords[c] for c in board.sides[1]}
    beyond = {board.coords[c] for c in board.sides[3]} - {board.coords[c] for c in board.sides[2]}
    assert next_side & stops, "one ride reaches the next side"
    # Two rides (0 -> corner of sides 1 and 2 -> side 3) would cost 4 of the caravel's 6.
    assert not beyond & stops, "a second ride in the same move is not allowed"


def _ride_then_pick_up(first_leg):
    """A freighter starting at ``first_leg`` makes its first leg to (5,-1) on the upper right
    side for 2 movement; a soldier at (4,0) is activated within its movement (U14) and boards
    it, then the soldier's activation ends: the freighter has 3 movement left."""
    sc = Scenario(make_map(), phase="build", wind=1, silver=6)
    f = sc.unit(0, "freighter", first_leg)
    k = sc.unit(0, "soldier", (4, 0))
    state = sc.build()
    act(state, "activate freighter", first_leg)
    act(state, "move", (5, -1))
    assert state.active.unit == f and state.active.move_left == 3
    act(state, "activate soldier", (4, 0))
    act(state, "move", (5, -1))
    assert state.u_where[k] == LOADED and state.u_carrier[k] == f
    act(state, "end activation")
    assert state.active.unit == f and state.active.move_left == 3 and len(state.stack) == 1
    return state, f, k


def test_wind_ridden_once_per_move_in_legs():
    """W1: a ship rides the winds once per move, also when the move is made in legs: a freighter
    that rode the wind on its first leg (then picked up a knight in a nested activation) cannot
    ride again in a later leg of the same move; a fresh activation can."""
    # From (5,-1) on the upper right side the clockwise wind goes to the lower right side
    # (q + r = 5). (2,3), (1,4) and (0,5) are 4, 5 and 6 steps away by sea: beyond 3 movement
    # except by the wind (cost 2).
    lower_right = {(5 - i, i) for i in range(6)}
    by_wind_only = {(2, 3), (1, 4), (0, 5)}

    # The control: a first leg of 2 plain steps by sea, (5,-3) -> (5,-1). The later leg rides.
    state, f, k = _ride_then_pick_up((5, -3))
    assert not state.active.rode
    moves = hexes(state, "move")
    assert lower_right <= moves
    act(state, "move", (0, 5))
    assert at(state, f) == (0, 5) and at(state, k) == (0, 5)
    assert move_events(state)[-1]["cost"] == 2

    # The first leg rides the wind, (1,-5) on the top side -> (5,-1) (8 steps by sea).
    state, f, k = _ride_then_pick_up((1, -5))
    assert [e["cost"] for e in move_events(state)] == [2, 1]  # the ride, the soldier boarding
    assert state.active.rode
    moves = hexes(state, "move")
    assert not moves & by_wind_only, "a second ride in the same move"
    assert {(5, 0), (4, 1), (3, 2)} <= moves  # 1-3 steps by sea are still open
    for h in sorted(by_wind_only):
        assert refused(state, "move", h)
    act(state, "move", (3, 2))
    assert at(state, f) == (3, 2) and state.active is None  # 3 - 3 = 0 left

    # A fresh activation (next round) may ride again.
    act(state, "end turn")
    act(state, "end turn")
    assert state.current_player == 0 and state.round == 1
    act(state, "activate freighter", (3, 2))
    assert not state.active.rode
    moves = hexes(state, "move")
    # From the lower right side the wind leads to the bottom side (r = 5): (-4,5) and (-5,5)
    # are 7 and 8 steps away by sea, beyond a freighter's 5.
    assert {(-4, 5), (-5, 5)} <= moves
    act(state, "move", (-5, 5))
    assert at(state, f) == (-5, 5) and move_events(state)[-1]["cost"] == 2

"""Battles: who can be attacked, the dice, the tactics, and what a defeat does.

Rules implemented here (Units > Attack, Results of an attack, Tactics, Artillery):
- Close combat: "both players ... roll a number of dice equal to the cost of the unit ...
  Compare only each player's highest die, and the greater value wins the battle. Ties must be
  re-rolled."
- Ranged: "the attacker rolls a number of dice equal to the cost of the unit. If any die result
  is 1, 2 or 3 the attack is successful", 1-2 at range 2, 1 at range 3; straight lines only,
  "blocked by mountains and walls".
- Flanking and the feint: the first attack on a hex sets its front; later attacks add 1, 2 or 3
  dice from a flank, rear flank or the rear. Attrition: +2 dice on the third attack on a hex from
  the same direction. Overwhelm: 6 or more attack dice and the defender surrenders before the
  battle.
- Land victory captures the defeated knight (a prisoner on the victor's nearest developed hex);
  sea victory sinks the ship into the victor's graveyard; Battle tokens equal the unit's value.
- Surrender: units that are surrounded and cannot move anywhere are all captured.
"""

from __future__ import annotations

from .hexgrid import angular_gap, nearest, opposite
from .movement import STOP, reach
from .state import (
    BATTLE, CHOOSE_DEFENDER, CHOOSE_PRISON, CHOOSE_VARIANT, LOADED, ON_BOARD, PRISONER, SRC_BATTLE, GameState,
    positions,
)
from .stats import (
    ARCHER, ARTILLERY_COST, FREIGHTER, IS_SHIP, LAND_TYPES, MAX_OCCUPANCY, RANGED_HIT_MAX, UNIT_COST,
    UNIT_MOVEMENT,
)


def defender_options(state: GameState, cell: int, origin: int, attacker: int) -> list[int]:
    """Defend: the units that may defend the hex ``cell`` against ``attacker``'s attack from
    ``origin``.

    Every unit on the hex may (a freighter only while no other ship is there: it defends itself
    but not other ships); and "Weaker units may defend stronger units ... if they are located on
    a hex adjacent to both the attacker and the unit they are defending": the owner's units on a
    hex next to both ``origin`` and ``cell``, cheaper than the strongest unit on the hex, of
    either kind (a caravel may defend a coastal archer: the document excludes only freighters,
    which "can not ... defend other ships or coastal buildings"). Every such unit, in hex, type
    and unit order: the defending player chooses among them (``variants`` groups the alike).
    A knight steps in only against an attacker who may capture it: "if a player has no
    developments on the map, he may not capture any opponent units", so a battle with a knight
    is one he may not fight (as ``may_target`` keeps him from attacking one).
    """
    owner = state.cell_player[cell]
    u_where, u_owner, u_type, u_cell, nbr = state.u_where, state.u_owner, state.u_type, state.u_cell, state.nbr
    # The owner's hexes next to both the attacker's hex and ``cell`` (two at most: the board's
    # common_neighbours, read from the state's neighbour table without a set or a list).
    beside1 = beside2 = -1
    for d in range(6):
        h = nbr[cell * 6 + d]
        if h < 0 or state.cell_player[h] != owner:
            continue
        for k in range(6):
            if nbr[origin * 6 + k] == h:
                if beside1 < 0:
                    beside1 = h
                else:
                    beside2 = h
    # One pass over the units: the owner's on the hex and on those beside it.
    on_hex: list[int] = []
    near: list[int] = []
    warship = False  # loops, not generators: the compiled function has no closures
    strongest = 0
    for u in range(len(u_cell)):
        if u_where[u] != ON_BOARD or u_owner[u] != owner:
            continue
        c = u_cell[u]
        if c == cell:
            on_hex.append(u)
            warship = warship or (IS_SHIP[u_type[u]] and u_type[u] != FREIGHTER)
            strongest = max(strongest, UNIT_COST[u_type[u]])
        elif c >= 0 and (c == beside1 or c == beside2):
            near.append(u)
    if not on_hex:
        return []
    # Each option as one int ordered by (hex, type, unit): the order the defender's choices come in.
    room, kinds = len(u_cell), len(UNIT_COST)
    keys: list[int] = []
    for u in on_hex:
        if not (warship and u_type[u] == FREIGHTER):
            keys.append((cell * kinds + u_type[u]) * room + u)
    for u in near:
        t = u_type[u]
        if t != FREIGHTER and UNIT_COST[t] < strongest and (IS_SHIP[t] or can_capture(state, attacker)):
            keys.append((u_cell[u] * kinds + t) * room + u)
    keys.sort()
    return [key % room for key in keys]


def defender_at(state: GameState, cell: int) -> int:
    """A unit standing on the hex that could defend it (the strongest; a freighter only
    defends itself): what kind of units hold the hex (ships or knights), for who may attack it."""
    best, best_key = -1, None
    for u in positions(state.u_cell, cell):
        if state.u_where[u] != ON_BOARD:
            continue
        key = (state.u_type[u] != FREIGHTER, UNIT_COST[state.u_type[u]], -u)
        if best_key is None or key > best_key:
            best, best_key = u, key
    return best


def can_capture(state: GameState, player: int) -> bool:
    """If a player has no developments on the map, he may not capture any opponent units."""
    for c in range(state.n_cells):
        if state.dev_owner[c] == player:
            return True
    return False


def may_target(state: GameState, player: int, cell: int) -> bool:
    """A hex this player may attack: another player's units, and a land defender only if the
    attacker has a development to hold the prisoner."""
    h = state.cell_player[cell]
    if h < 0 or h == player:
        return False
    d = defender_at(state, cell)
    if d < 0:
        return False
    return IS_SHIP[state.u_type[d]] or can_capture(state, player)


def close_targets(state: GameState, u: int) -> list[int]:
    """Adjacent hexes unit ``u`` can attack in close combat (not through opponent walls)."""
    me, a = state.u_owner[u], state.u_cell[u]
    out = []
    for d in range(6):
        b = state.nbr[a * 6 + d]
        if b < 0:
            continue
        w = state.walls[state.nbr_edge[a * 6 + d]]
        if (w < 0 or w == me) and may_target(state, me, b):
            out.append(b)
    return out


def ranged_targets(state: GameState, player: int, origin: int) -> dict[int, int]:
    """Hexes a ranged attack from ``origin`` can hit, with their range (straight rays of 3)."""
    gmap, out = state.gmap, {}
    for d in range(6):
        for k, (cell, edge) in enumerate(gmap.board.rays[origin][d], start=1):
            w = state.walls[edge]
            if (w >= 0 and w != player) or not (gmap.is_land[cell] or gmap.is_sea[cell]):
                break  # "Ranged attacks are blocked by mountains and walls"
            if may_target(state, player, cell):
                out[cell] = k
    return out


def preview_attack_dice(state: GameState, base: int, target: int, from_dir: int, ranged: bool) -> int:
    """The attack dice an attack would roll now, with the tactics of the Tactics section,
    recording nothing (bots and the observation ask it; :func:`attack_dice` rolls with it).

    ``from_dir`` is the direction from the target hex towards the attacker. The first attack on
    a hex this turn sets its front (the feint); flanking adds the 60-degree steps between the
    attack and the front (flank 1, rear flank 2, rear 3); the third attack from one direction
    adds the attrition bonus.
    """
    flank, attrition = tactics_dice(state, target, from_dir, ranged)
    return base + flank + attrition


def tactics_dice(state: GameState, target: int, from_dir: int, ranged: bool) -> tuple[int, int]:
    """The extra attack dice an attack would get now: (flanking, attrition), as
    :func:`preview_attack_dice` adds them (the battle event records both)."""
    cfg = state.config
    if ranged and not cfg.ranged_tactics:
        return 0, 0
    flank = angular_gap(from_dir, state.front.get(target, from_dir))
    attrition = cfg.attrition_bonus if state.attacks.get(target * 6 + from_dir, 0) + 1 >= cfg.attrition_attacks else 0
    return flank, attrition


def attack_dice(state: GameState, base: int, target: int, from_dir: int, ranged: bool) -> int:
    """Attack dice with the tactics (:func:`preview_attack_dice`); records the attack for later
    ones (the front it sets, the attrition count)."""
    dice = preview_attack_dice(state, base, target, from_dir, ranged)
    if ranged and not state.config.ranged_tactics:
        return dice
    state.front.setdefault(target, from_dir)
    key = target * 6 + from_dir
    state.attacks[key] = state.attacks.get(key, 0) + 1
    return dice


def pending_attack_dice(state: GameState) -> int:
    """The attack dice the player asked to defend an attack faces, tactics included (0 when
    nobody is: defending a seizure rolls no dice, rules v2)."""
    pend = state.pending
    if pend is not None and pend.kind == CHOOSE_VARIANT and pend.parent is not None:
        pend = pend.parent  # which of the alike defenders: the same attack
    if pend is None or pend.kind != CHOOSE_DEFENDER:
        return 0
    base = UNIT_COST[state.u_type[pend.unit]]
    if pend.artillery:
        base = ARTILLERY_COST
    return preview_attack_dice(state, base, pend.cell, direction_from(state, pend.cell, pend.origin), bool(pend.reach))


def close_combat(state: GameState, attack: int, defend: int) -> tuple[bool, list[list[int]]]:
    """Roll close combat until the highest dice differ. Returns (attacker won, rolls)."""
    rolls = []
    while True:
        a = state.roll_dice(attack)
        d = state.roll_dice(defend)
        rolls.append([a, d])
        if max(a) != max(d):
            return max(a) > max(d), rolls


def ranged_hit(state: GameState, dice: int, reach: int) -> tuple[bool, list[int]]:
    a = state.roll_dice(dice)
    return min(a) <= RANGED_HIT_MAX[reach], a


def prison_options(state: GameState, player: int, cell: int) -> list[int]:
    """"Place the piece on the victor's nearest developed hex": his developed hexes nearest to
    ``cell``, ascending. With several equally near, which one is the victor's choice (v2)."""
    return nearest(state.gmap.board.dist[cell], [c for c in range(state.n_cells) if state.dev_owner[c] == player])


def defeat(state: GameState, u: int, victor: int, at: int, pays: bool = True) -> None:
    """A defeated unit: captured if a knight, sunk if a ship; the victor takes Battle tokens
    (unless ``pays`` is false: a surrender under ``surrender_pays_tokens=False``).
    A prisoner goes to the nearest of the victor's developments; with several equally near he
    is asked which, once the decision is over (``state.asks``)."""
    if pays:
        state.earn(victor, SRC_BATTLE, UNIT_COST[state.u_type[u]])
    if IS_SHIP[state.u_type[u]]:
        state.remove(u)
        state.sunk[victor] += 1
        state.emit("sunk", dict(unit=u, by=victor, cell=at, player=victor))
        return
    prisons = prison_options(state, victor, at)
    prison = prisons[0] if prisons else -1
    if len(prisons) > 1:
        state.asks.append([CHOOSE_PRISON, victor, u, at])
    if state.u_where[u] == ON_BOARD:
        state.lift(u)
    state.u_where[u] = PRISONER
    state.u_cell[u] = prison
    state.u_holder[u] = victor
    state.u_carrier[u] = -1
    state.mark_units()
    state.emit("captured", dict(unit=u, by=victor, cell=at, prison=prison, player=victor))


def hex_cleared(state: GameState, cell: int, player: int) -> bool:
    """Occupation: "if no enemy units remain" on the hex (a development or artillery of theirs
    may still stand there: occupying takes it)."""
    h = state.cell_player[cell]
    if h == -1 or h == player:
        return True
    for v in range(state.n_units):
        if state.u_cell[v] == cell and state.u_where[v] == ON_BOARD and state.u_owner[v] != player:
            return False
    return True


def can_stand(state: GameState, u: int, cell: int) -> bool:
    """Unit ``u`` could end a move on ``cell`` (terrain, holder and occupancy)."""
    ship = IS_SHIP[state.u_type[u]]
    if ship != bool(state.sea[cell]) or not (state.sea[cell] or state.land[cell]):
        return False
    h = state.cell_player[cell]
    return (h == -1 or h == state.u_owner[u]) and state.occ[cell] + 1 <= MAX_OCCUPANCY


def can_occupy(state: GameState, u: int, cell: int) -> bool:
    """Occupation: unit ``u`` may move onto the hex it won, ``cell``, now that no enemy units
    remain there; what else stands there (a development, artillery) becomes the victor's."""
    ship = IS_SHIP[state.u_type[u]]
    if ship != bool(state.sea[cell]) or not (state.sea[cell] or state.land[cell]):
        return False
    return hex_cleared(state, cell, state.u_owner[u]) and state.occ[cell] + 1 <= MAX_OCCUPANCY


def surrounded(state: GameState, cell: int, by: int) -> bool:
    """Tactics > Surrender: the units on ``cell`` are surrounded on all adjacent land and sea
    hexes (one of them by ``by``) and none of them can move anywhere: "Surrounded units must be
    unable to move ... in any direction", with the movement of the phase now ("During the build
    phase, units may pass through but not end their movement in hexes occupied by another
    player")."""
    owner = state.cell_player[cell]
    touching = False
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n < 0 or not (state.land[n] or state.sea[n]):
            continue
        if state.cell_player[n] < 0:
            return False
        touching |= state.cell_player[n] == by
    if not touching:
        return False
    units = state.units_at(cell, owner)
    if not units:
        return False
    # Escape is judged with the movement of the phase the ring closes in (option
    # surrender_escape): in the build phase units pass through other players' hexes. A unit
    # that may not attack never enters a battle, so in the battle phase escape is a free hex.
    saved_phase = state.phase
    if state.config.surrender_escape == "battle":
        state.phase = BATTLE
    try:
        for v in units:
            if reach(state, v, UNIT_MOVEMENT[state.u_type[v]]).destinations(STOP):
                return False
        return True
    finally:
        state.phase = saved_phase


def check_surrender(state: GameState, player: int) -> None:
    """Tactics > Surrender, after anything ``player`` does that takes a hex or blocks a way (a
    move, battle, placement, recruit, build, wall, seizure): units anywhere on the board that are
    now surrounded "must immediately surrender" and are captured (sunk, for ships). The whole
    board is checked, as an escape may run through a player's own full hexes far from the hex
    that closed it. Enemies touching ``player`` surrender to him; other ringed units (his own,
    ringed by a way he closed himself, or a third player's) to the opponent around them who holds
    the most adjacent hexes (ties: the first in turn order after their owner), rules v2."""
    if not state.config.surrender:
        return
    for n in range(state.n_cells):
        h = state.cell_player[n]
        if h < 0 or not _all_around_held(state, n):
            continue
        victor = player if h != player and _touches(state, n, player) else ring_holder(state, n)
        if victor < 0 or not surrounded(state, n, victor):
            continue
        units = state.units_at(n, h)
        if not can_capture(state, victor) and _any_knight(state, units):
            continue
        state.emit("surrender", dict(cell=n, owner=h, units=units, player=victor))
        for v in units:
            defeat(state, v, victor, n, state.config.surrender_pays_tokens)


def _all_around_held(state: GameState, cell: int) -> bool:
    """Every land and sea hex next to ``cell`` is held by someone (the cheap test first)."""
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n >= 0 and (state.land[n] or state.sea[n]) and state.cell_player[n] < 0:
            return False
    return True


def _touches(state: GameState, cell: int, player: int) -> bool:
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n >= 0 and state.cell_player[n] == player:
            return True
    return False


def ring_holder(state: GameState, cell: int) -> int:
    """The opponent of the hex's holder who holds the most hexes next to it (ties: the first in
    turn order after the holder), or -1 if no opponent touches it."""
    owner, p = state.cell_player[cell], state.n_players
    count = [0] * p
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n >= 0 and state.cell_player[n] >= 0 and state.cell_player[n] != owner:
            count[state.cell_player[n]] += 1
    best, best_n = -1, 0
    for k in range(1, p):
        q = (owner + k) % p
        if count[q] > best_n:
            best, best_n = q, count[q]
    return best


def _any_knight(state: GameState, units: list[int]) -> bool:
    for v in units:
        if state.u_type[v] in LAND_TYPES:
            return True
    return False


def coastal_or_sea(state: GameState, cell: int) -> bool:
    """"Archers loaded onto a freighter can attack coastal hexes or enemy ships": the hexes an
    archer aboard may target (sea hexes, and land hexes with a sea neighbour)."""
    return bool(state.sea[cell] or state.gmap.coastal[cell])


def can_attack_from_here(state: GameState, u: int) -> bool:
    """Freighters cannot attack; of the units aboard a freighter only archers may attack."""
    t = state.u_type[u]
    if t == FREIGHTER:
        return False
    if state.u_where[u] == LOADED:
        return t == ARCHER
    return state.u_where[u] == ON_BOARD


def direction_from(state: GameState, target: int, origin: int) -> int:
    """Direction from ``target`` towards ``origin`` (they lie on one straight ray)."""
    d = state.gmap.board.direction_between(origin, target)
    return opposite(d)

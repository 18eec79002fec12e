"""Pictures of a Vigtavl state: a text map (``ansi``), an RGB image (``rgb_array``), a viewer (``human``).

Text (``render_ansi``): the hexagon row by row, each row shifted half a hex, one 5-character
token per hex. An empty hex shows its terrain (``~`` sea, ``.`` land, ``^`` mountain); a held hex
shows the holder's seat digit, then its development (``+`` camp, ``#`` fort, ``@`` castle) and
artillery (``!``), then one letter per unit (``s`` soldier, ``a`` archer, ``c`` cavalry, ``v``
caravel, ``f`` freighter, ``g`` galleon; capitals are units activated this turn), padded with
the terrain character; ``*`` marks prisoners held there. Example: ``0#sA.`` is player 0's fort
on land with an upright soldier and an activated archer. A status panel follows: phase, round,
whose decision, wind, the active unit, the pending choice (who is asked what: who defends an
attacked hex, the side of a battle move, the setup loads ...), per player gold, silver, tokens
and pieces, and a legend.

Image (``render_rgb``): pointy-top hexes in terrain colours (sea blue, land green, mountain
grey-brown with a peak), developments as owner-coloured squares lettered C/F/K, artillery as an
owner-coloured diamond, units as owner-coloured discs lettered like the text map (a spent unit is
drawn with a dark ring; a freighter shows its cargo as small dots), prisoners as small dark squares
ringed in their owner's colour, walls as thick owner-coloured lines on hex edges, the active
unit's hex outlined in white, a hex offered for occupation in orange, the hex a pending choice
is about (an attacked hex, a development about to be seized) in magenta with a line from the
hex the attack comes from, a curved arrow for the prevailing winds, and a side panel with phase,
round, whose turn, who is asked what out of turn, and every player's gold, silver and tokens.

Viewer (``HumanViewer``): shows frames with matplotlib when it is installed and a display exists;
otherwise it does nothing, so ``human`` mode never blocks and never fails on a headless machine.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .engine import apply_action
from .engine.hexgrid import pixel
from .engine.state import (
    CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_SEIZER,
    CHOOSE_SIDE, CHOOSE_VARIANT, LOADED, ON_BOARD, PHASE_NAMES, PLACEMENT, PRISONER, SPENT, GameState,
)
from .engine.stats import DEV_NAMES, FREIGHTER, UNIT_NAMES
from .engine.combat import pending_attack_dice
from .engine.narrate import n_dice

UNIT_LETTERS = "sacvfg"
DEV_LETTERS = " CFK"  # in the picture
DEV_SYMBOLS = " +#@"  # in the text map
ARTILLERY_SYMBOL = "!"
PRISONER_SYMBOL = "*"
TEXT_LEGEND = ("legend: ~ sea  . land  ^ mountain  digit = holder  + camp  # fort  @ castle  ! artillery  "
               "* prisoners", "        s soldier  a archer  c cavalry  v caravel  f freighter  g galleon "
               "(capital: activated this turn)")
TERRAIN_CHARS = "~.^"
TOKEN_WIDTH = 5

HEX_SIZE = 30  # pixels from a hex centre to a corner
MARGIN = 44
PANEL_WIDTH = 240
TERRAIN_COLOURS = ((128, 178, 206), (150, 192, 112), (150, 136, 118))
PLAYER_COLOURS = ((214, 40, 40), (24, 58, 196), (240, 176, 0), (150, 50, 190))
BACKGROUND = (28, 38, 56)
PANEL_COLOUR = (240, 236, 226)
TEXT_COLOUR = (20, 20, 20)
GRID_COLOUR = (40, 52, 70)
ACTIVE_COLOUR = (255, 255, 255)
OCCUPY_COLOUR = (255, 140, 0)
PENDING_COLOUR = (230, 0, 200)
PENDING_WORDS = {CHOOSE_SIDE: "battle side", CHOOSE_DEFENDER: "defend", CHOOSE_GUARD: "defend a seizure",
                 CHOOSE_BREACHER: "breacher", CHOOSE_SEIZER: "seizer", CHOOSE_VARIANT: "which unit",
                 CHOOSE_PRISON: "prison", CHOOSE_RESCUE_SPOT: "rescued unit"}  # the picture's panel
WALL_WIDTH = 6
UNIT_RADIUS = 9
SAMPLE_SEED, SAMPLE_DECISIONS, SAMPLE_BUSY = 11, 120, 0.9
UNIT_SLOTS = ((-0.42, -0.30), (0.42, -0.30), (0.0, 0.45), (-0.42, 0.30), (0.42, 0.30), (0.0, -0.5))


# ---------------------------------------------------------------------- text
def render_ansi(state: GameState, coords: bool = False) -> str:
    """The state as text: the hex map (each row labelled with its axial r, and the q of its first
    and last hex) and a status panel; ``coords=True`` writes every hex's ``q,r`` in its place."""
    return "\n".join(_map_lines(state, coords) + [""] + status_lines(state) + list(TEXT_LEGEND)) + "\n"


def coordinate_token(q: int, r: int) -> str:
    """``q,r`` in a hex token's width (``-5,-5`` fills it)."""
    return f"{q},{r}".center(TOKEN_WIDTH)


def hex_token(state: GameState, cell: int, units: list[int]) -> str:
    """The 5-character token of one hex (see the module docstring)."""
    fill = TERRAIN_CHARS[state.gmap.terrain[cell]]
    holder = state.cell_player[cell]
    text = ""
    if holder >= 0:
        text = str(holder) + DEV_SYMBOLS[state.dev_type[cell]].strip()
        text += ARTILLERY_SYMBOL if state.art_owner[cell] >= 0 else ""
        for u in units:
            letter = UNIT_LETTERS[state.u_type[u]]
            text += letter.upper() if state.u_flags[u] & SPENT else letter
    if any(state.u_where[u] == PRISONER and state.u_cell[u] == cell for u in range(len(state.u_cell))):
        text += PRISONER_SYMBOL
    return text[:TOKEN_WIDTH].ljust(TOKEN_WIDTH, fill)


def _units_by_cell(state: GameState) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for u, (c, w) in enumerate(zip(state.u_cell, state.u_where)):
        if w == ON_BOARD:
            out.setdefault(c, []).append(u)
    return out


def _map_lines(state: GameState, coords: bool = False) -> list[str]:
    """One line per axial row r, top to bottom: ``r=-5 |`` then the hexes west to east (q rising
    by one per hex), then ``| q 0..5``: a hex's q is the row's first q plus its place."""
    board = state.gmap.board
    R = board.radius
    by_cell = _units_by_cell(state)
    lines = []
    for r in range(-R, R + 1):
        qs = [q for q in range(-R, R + 1) if abs(q + r) <= R]
        tokens = [coordinate_token(q, r) if coords else
                  hex_token(state, board.index[(q, r)], by_cell.get(board.index[(q, r)], [])) for q in qs]
        indent = " " * (abs(r) * (TOKEN_WIDTH + 1) // 2)
        lines.append(f"r={r:<+3d}| {indent}{' '.join(tokens)}{indent} | q {qs[0]}..{qs[-1]}")
    return lines


def phase_words(state: GameState) -> str:
    """"phase build  round 1/2", or "game over" once it is."""
    if state.is_over:
        return "game over"
    return f"phase {PHASE_NAMES[state.phase]}  round {state.round + 1}/{state.config.rounds_per_phase}"


def winner_words(state: GameState) -> str:
    """"winner: player_1" (or "winners: player_0, player_1" on a shared win) of a finished game."""
    best = max(state.tokens)
    won = [f"player_{p}" for p, t in enumerate(state.tokens) if t == best]
    return f"winner{'s' if len(won) > 1 else ''}: {', '.join(won)}"


def status_lines(state: GameState) -> list[str]:
    """The status panel shared by the text and the picture."""
    s = state
    wind = "clockwise" if s.wind > 0 else "counter-clockwise"
    lines = [f"map {s.gmap.name}  {phase_words(s)}  wind {wind}"]
    if s.is_over:
        lines.append("game over; " + winner_words(s))
    else:
        who = f"turn player_{s.turn_player}"
        if s.retaliator >= 0:
            who += f"; player_{s.retaliator} is retaliating"
        lines.append(who)
        asked = pending_text(s)
        if asked:
            lines.append(asked)
    if s.stack:
        u = s.stack[-1].unit
        lines.append(f"active: player_{s.u_owner[u]} {UNIT_NAMES[s.u_type[u]]} at "
                     f"{s.gmap.board.coords[s.u_cell[u]]}, {s.stack[-1].move_left} move left")
    for p in range(s.n_players):
        lines.append(f"player_{p}: gold {s.gold[p]} silver {s.silver[p]} tokens {s.tokens[p]}  "
                     + _pieces_text(s, p))
    return lines


def pending_text(state: GameState) -> str:
    """Who is asked what by the pending choice (or the setup's loads), in words; "" if nothing."""
    s, pend = state, state.pending
    if pend is None:
        if s.phase == PLACEMENT and s.to_load:
            return f"player_{s.to_load[0]} loads his two freighters (setup)"
        return ""
    coords = s.gmap.board.coords
    who, cell = f"player_{pend.player}", coords[pend.cell] if pend.cell >= 0 else None
    attacker = ""
    if pend.unit >= 0:
        attacker = f"player_{s.u_owner[pend.unit]}'s {UNIT_NAMES[s.u_type[pend.unit]]}"
    if pend.kind == CHOOSE_SIDE:
        return f"{who} chooses the side his {UNIT_NAMES[s.u_type[pend.unit]]} attacks {cell} from"
    if pend.kind == CHOOSE_DEFENDER:
        how = f"shooting at range {pend.reach}" if pend.reach else "in close combat"
        gun = " firing artillery" if pend.artillery else ""
        return (f"{who} chooses who defends {cell} against {attacker}{gun} from {coords[pend.origin]} "
                f"({how}, {n_dice(pending_attack_dice(s))})")
    if pend.kind == CHOOSE_GUARD:
        piece = DEV_NAMES[s.dev_type[pend.cell]] if s.dev_type[pend.cell] else "artillery"
        return f"{who} chooses who defends his {piece} at {cell} from seizure by {attacker}, or none"
    if pend.kind == CHOOSE_VARIANT:
        return f"{who} chooses which of his unalike units at {cell} (upright or spent, cargo)"
    if pend.kind == CHOOSE_PRISON:
        return f"{who} chooses which of his developments holds {attacker} prisoner"
    if pend.kind == CHOOSE_RESCUE_SPOT:
        return f"{who} chooses where his rescued {UNIT_NAMES[s.u_type[pend.unit]]} stands"
    what = "breaches the wall" if pend.kind == CHOOSE_BREACHER else f"seizes {cell}"
    where = f" from {cell}" if pend.kind == CHOOSE_BREACHER else ""
    return f"{who} chooses which of his units{where} {what}"


def _pieces_text(state: GameState, p: int) -> str:
    on = sum(1 for u, o in enumerate(state.u_owner) if o == p and state.u_where[u] == ON_BOARD)
    aboard = sum(1 for u, o in enumerate(state.u_owner) if o == p and state.u_where[u] == LOADED)
    held = sum(1 for u, o in enumerate(state.u_owner) if o == p and state.u_where[u] == PRISONER)
    devs = sum(1 for o in state.dev_owner if o == p)
    walls = sum(1 for o in state.walls if o == p)
    return f"units {on} aboard {aboard} captured {held} devs {devs} walls {walls} sunk {state.sunk[p]}"


# ---------------------------------------------------------------------- image
class _Canvas:
    """Pixel geometry of one board: hex centres and corners, image size."""

    def __init__(self, board: Any) -> None:
        self.board = board
        xs, ys = zip(*(pixel(c, HEX_SIZE) for c in board.coords))
        self.x0 = MARGIN - min(xs) + HEX_SIZE
        self.y0 = MARGIN - min(ys) + HEX_SIZE
        self.map_width = int(max(xs) - min(xs) + 2 * (HEX_SIZE + MARGIN))
        self.height = int(max(ys) - min(ys) + 2 * (HEX_SIZE + MARGIN))
        self.width = self.map_width + PANEL_WIDTH

    def centre(self, cell: int) -> tuple[float, float]:
        x, y = pixel(self.board.coords[cell], HEX_SIZE)
        return x + self.x0, y + self.y0

    def corners(self, cell: int, scale: float = 1.0) -> list[tuple[float, float]]:
        """Pointy-top corners, corner k at angle 60k - 30 degrees (screen y down)."""
        cx, cy = self.centre(cell)
        return [(cx + scale * HEX_SIZE * math.cos(math.radians(60 * k - 30)),
                 cy + scale * HEX_SIZE * math.sin(math.radians(60 * k - 30))) for k in range(6)]

    def edge(self, cell: int, d: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners of the hex's edge facing direction ``d`` (0 E, 1 NE, ... 5 SE)."""
        k = {0: (0, 1), 1: (5, 0), 2: (4, 5), 3: (3, 4), 4: (2, 3), 5: (1, 2)}[d]
        c = self.corners(cell)
        return c[k[0]], c[k[1]]


def _font(size: int) -> Any:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType
        return ImageFont.load_default()


def render_rgb(state: GameState, coords: bool = False) -> np.ndarray:
    """The state as a uint8 ``(H, W, 3)`` picture (``coords``: each hex's q,r written small at
    its bottom edge)."""
    cv = _Canvas(state.gmap.board)
    img = Image.new("RGB", (cv.width, cv.height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    fonts = (_font(12), _font(14))
    _draw_terrain(draw, cv, state)
    _draw_walls(draw, cv, state)
    _draw_pending_line(draw, cv, state)
    by_cell = _units_by_cell(state)
    for cell in range(cv.board.n_cells):
        _draw_hex_contents(draw, cv, state, cell, by_cell.get(cell, []), fonts[0])
    _draw_highlights(draw, cv, state)
    if coords:
        _draw_coordinates(draw, cv, _font(9))
    _draw_wind(draw, state, fonts[1])
    _draw_panel(draw, cv, state, fonts[1])
    return np.asarray(img, dtype=np.uint8)


def _draw_coordinates(draw: ImageDraw.ImageDraw, cv: _Canvas, font: Any) -> None:
    for cell, (q, r) in enumerate(cv.board.coords):
        cx, cy = cv.centre(cell)
        draw.text((cx, cy + HEX_SIZE * 0.62), f"{q},{r}", fill=(20, 20, 20), font=font, anchor="mm")


def _draw_terrain(draw: ImageDraw.ImageDraw, cv: _Canvas, state: GameState) -> None:
    for cell, t in enumerate(state.gmap.terrain):
        draw.polygon(cv.corners(cell), fill=TERRAIN_COLOURS[t], outline=GRID_COLOUR)
        if t == 2:  # a mountain peak
            cx, cy = cv.centre(cell)
            h = HEX_SIZE * 0.45
            draw.polygon([(cx - h, cy + h * 0.6), (cx, cy - h * 0.8), (cx + h, cy + h * 0.6)],
                         fill=(110, 98, 86), outline=(235, 235, 235))


def _draw_walls(draw: ImageDraw.ImageDraw, cv: _Canvas, state: GameState) -> None:
    board = cv.board
    for e, owner in enumerate(state.walls):
        if owner < 0:
            continue
        cell = board.edge_cells[e][0]
        d = board.edge[cell].index(e)
        a, b = cv.edge(cell, d)
        draw.line([a, b], fill=(20, 20, 20), width=WALL_WIDTH + 2)
        draw.line([a, b], fill=PLAYER_COLOURS[owner], width=WALL_WIDTH - 1)


def _draw_hex_contents(draw: ImageDraw.ImageDraw, cv: _Canvas, state: GameState, cell: int,
                       units: list[int], font: Any) -> None:
    cx, cy = cv.centre(cell)
    dev, art = state.dev_type[cell], state.art_owner[cell]
    if dev:
        h = HEX_SIZE * (0.16 + 0.06 * dev)
        draw.rectangle([cx - h, cy - h, cx + h, cy + h], fill=PLAYER_COLOURS[state.dev_owner[cell]], outline=(0, 0, 0))
        draw.text((cx, cy), DEV_LETTERS[dev], fill=(255, 255, 255), font=font, anchor="mm")
    slots = iter(UNIT_SLOTS)
    if art >= 0:
        sx, sy = next(slots)
        x, y, h = cx + sx * HEX_SIZE, cy + sy * HEX_SIZE, UNIT_RADIUS
        draw.polygon([(x, y - h), (x + h, y), (x, y + h), (x - h, y)], fill=PLAYER_COLOURS[art], outline=(0, 0, 0))
        draw.text((x, y), "A", fill=(255, 255, 255), font=font, anchor="mm")
    for u in units:
        sx, sy = next(slots, (0.0, 0.0))
        _draw_unit(draw, state, u, cx + sx * HEX_SIZE, cy + sy * HEX_SIZE, font)
    prisoners = [u for u in range(len(state.u_cell)) if state.u_where[u] == PRISONER and state.u_cell[u] == cell]
    for i, u in enumerate(prisoners):
        x, y = cx - HEX_SIZE * 0.55 + i * 10, cy + HEX_SIZE * 0.55
        draw.rectangle([x, y - 4, x + 8, y + 4], fill=(30, 30, 30), outline=PLAYER_COLOURS[state.u_owner[u]], width=2)


def _draw_unit(draw: ImageDraw.ImageDraw, state: GameState, u: int, x: float, y: float, font: Any) -> None:
    r = UNIT_RADIUS
    spent = state.u_flags[u] & SPENT
    draw.ellipse([x - r, y - r, x + r, y + r], fill=PLAYER_COLOURS[state.u_owner[u]],
                 outline=(0, 0, 0) if spent else (255, 255, 255), width=3 if spent else 1)
    draw.text((x, y), UNIT_LETTERS[state.u_type[u]], fill=(255, 255, 255), font=font, anchor="mm")
    if state.u_type[u] == FREIGHTER:
        cargo = [v for v in range(len(state.u_carrier)) if state.u_carrier[v] == u and state.u_where[v] == LOADED]
        for i, v in enumerate(cargo):
            px = x - r + 2 + i * 6
            draw.ellipse([px - 2, y + r, px + 2, y + r + 4], fill=(250, 250, 250), outline=(0, 0, 0))


def _draw_highlights(draw: ImageDraw.ImageDraw, cv: _Canvas, state: GameState) -> None:
    if state.stack:
        c = state.u_cell[state.stack[-1].unit]
        if c >= 0:
            draw.polygon(cv.corners(c, 0.92), outline=ACTIVE_COLOUR, width=3)
    if state.occupy_unit >= 0 and state.occupy_cell >= 0:
        draw.polygon(cv.corners(state.occupy_cell, 0.84), outline=OCCUPY_COLOUR, width=3)
    pend = state.pending
    if pend is not None and pend.cell >= 0:
        draw.polygon(cv.corners(pend.cell, 0.76), outline=PENDING_COLOUR, width=3)


def _draw_pending_line(draw: ImageDraw.ImageDraw, cv: _Canvas, state: GameState) -> None:
    """A line from the hex a pending attack or seizure comes from to its target, under the pieces."""
    pend = state.pending
    if pend is not None and pend.cell >= 0 and pend.origin >= 0:
        draw.line([cv.centre(pend.origin), cv.centre(pend.cell)], fill=PENDING_COLOUR, width=3)


def _draw_wind(draw: ImageDraw.ImageDraw, state: GameState, font: Any) -> None:
    """A circular arrow in the top-left corner: its head shows the winds' sense of rotation."""
    cx, cy, r = 30, 30, 16
    draw.arc([cx - r, cy - r, cx + r, cy + r], start=20, end=340, fill=(255, 255, 255), width=3)
    ang = math.radians(340 if state.wind > 0 else 20)
    hx, hy = cx + r * math.cos(ang), cy + r * math.sin(ang)
    tangent = ang + (math.pi / 2 if state.wind > 0 else -math.pi / 2)
    tip = (hx + 8 * math.cos(tangent), hy + 8 * math.sin(tangent))
    side = tangent + math.pi / 2
    draw.polygon([tip, (hx + 5 * math.cos(side), hy + 5 * math.sin(side)),
                  (hx - 5 * math.cos(side), hy - 5 * math.sin(side))], fill=(255, 255, 255))
    label = "wind: clockwise" if state.wind > 0 else "wind: counter-clockwise"
    draw.text((cx + r + 10, cy), label, fill=(255, 255, 255), font=font, anchor="lm")


def panel_lines(state: GameState) -> list[str]:
    """The picture's panel, above the players: the phase and round, whose turn and who is asked;
    on the last frame, the game's end and who won (not the phase "over" in round 1)."""
    s = state
    lines = [f"Vigtavl - {s.gmap.name}"]
    if s.is_over:
        return lines + ["game over", winner_words(s)]
    lines += [f"phase: {PHASE_NAMES[s.phase]}", f"round: {s.round + 1} / {s.config.rounds_per_phase}",
              f"turn: player_{s.turn_player}"]
    if s.retaliator >= 0:
        lines.append(f"retaliating: player_{s.retaliator}")
    if s.pending is not None:
        lines.append(f"asked: player_{s.pending.player} ({PENDING_WORDS[s.pending.kind]})")
    elif s.phase == PLACEMENT and s.to_load:
        lines.append(f"loading: player_{s.to_load[0]}")
    return lines


def _draw_panel(draw: ImageDraw.ImageDraw, cv: _Canvas, state: GameState, font: Any) -> None:
    s, x0 = state, cv.map_width
    draw.rectangle([x0, 0, cv.width, cv.height], fill=PANEL_COLOUR)
    y = 14
    for text in panel_lines(s):
        draw.text((x0 + 12, y), text, fill=TEXT_COLOUR, font=font)
        y += 22
    y += 8
    for p in range(s.n_players):
        draw.rectangle([x0 + 12, y + 2, x0 + 26, y + 16], fill=PLAYER_COLOURS[p], outline=(0, 0, 0))
        marker = " <" if not s.is_over and p == s.current_player else ""
        draw.text((x0 + 34, y), f"player_{p}{marker}", fill=TEXT_COLOUR, font=font)
        draw.text((x0 + 34, y + 20), f"gold {s.gold[p]}  silver {s.silver[p]}", fill=TEXT_COLOUR, font=font)
        draw.text((x0 + 34, y + 40), f"tokens {s.tokens[p]}  sunk {s.sunk[p]}", fill=TEXT_COLOUR, font=font)
        y += 70
    legend = ["s soldier  a archer  c cavalry", "v caravel  f freighter  g galleon",
              "C camp  F fort  K castle  A artillery", "dark ring: activated this turn",
              "dots under f: cargo aboard", "small dark square: prisoner",
              "  (its rim: the captive's owner)", "white outline: active unit",
              "magenta: the hex a choice is about"]
    for text in legend:
        draw.text((x0 + 12, y), text, fill=(90, 90, 90), font=_font(11))
        y += 16


# ---------------------------------------------------------------------- human viewer
class HumanViewer:
    """Shows frames in a matplotlib window when possible; a silent no-op otherwise."""

    def __init__(self) -> None:
        self._plt: Any = None
        self._image: Any = None
        self._tried = False

    def _backend(self) -> Any:
        if not self._tried:
            self._tried = True
            if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
                try:
                    import matplotlib.pyplot as plt
                except ImportError:
                    plt = None
                self._plt = plt
        return self._plt

    def show(self, frame: np.ndarray) -> None:
        plt = self._backend()
        if plt is None:
            return
        if self._image is None:
            plt.ion()
            self._image = plt.imshow(frame)
            plt.axis("off")
        else:
            self._image.set_data(frame)
        plt.pause(0.001)

    def close(self) -> None:
        if self._plt is not None and self._image is not None:
            self._plt.close(self._image.figure)
        self._image = None


def save_png(state: GameState, path: str) -> None:
    """Write the picture of a state to a PNG file."""
    Image.fromarray(render_rgb(state)).save(path)


def sample_state(seed: int = SAMPLE_SEED, decisions: int = SAMPLE_DECISIONS, gmap: str = "duel") -> GameState:
    """A mid-game position from seeded random play that prefers acting to ending turns
    (the picture in ``docs/img/board.png``)."""
    import random

    from .engine import legal_actions, load_map, new_game
    from .engine.actions import N_HEX_VERBS

    state, rng = new_game(load_map(gmap), seed=seed), random.Random(seed)
    first_global = N_HEX_VERBS * state.gmap.board.n_cells
    for _ in range(decisions):
        if state.is_over:
            break
        legal = legal_actions(state)
        hex_moves = [a for a in legal if a < first_global]
        pool = hex_moves if hex_moves and rng.random() < SAMPLE_BUSY else legal
        apply_action(state, rng.choice(pool))
    return state


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Draw a sample mid-game position to a PNG file.")
    ap.add_argument("path", nargs="?", default="docs/img/board.png")
    ap.add_argument("--seed", type=int, default=SAMPLE_SEED)
    ap.add_argument("--decisions", type=int, default=SAMPLE_DECISIONS)
    args = ap.parse_args()
    position = sample_state(args.seed, args.decisions)
    save_png(position, args.path)
    print(render_ansi(position))



"""The worked example of docs/how-to-play.md: one whole battle turn of a seeded duel, played
through the engine, with a picture after each step.

    PYTHONPATH=. python docs/howto_example.py           # plays it, rewrites docs/img/howto_*.png
    PYTHONPATH=. python docs/howto_example.py --check   # plays it and prints the battles, writes nothing

Every decision is written as a player reads it: a verb name of ``actions.VERB_NAMES`` (or a
global one of ``actions.GLOBAL_NAMES``) and the hex's axial ``(q, r)``. Each is checked to be
legal before it is applied, so a rules change that makes one illegal stops the script with the
decision's number and words (``tests/test_howto_doc.py`` runs it). The dice come from the seed:
the same seed and decisions give the same battles and the same pictures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.engine import actions as A
from vigtavl_env.engine.state import GameState
from vigtavl_env.render import HEX_SIZE, PANEL_COLOUR, _Canvas, render_rgb

SEED = 7
MAP = "duel"
IMG = Path(__file__).resolve().parent / "img"

Decision = tuple  # ("verb name", (q, r)) or ("global verb name",)

# Setup, placement and both build rounds: red (player_0) settles the south-west coast, blue
# (player_1) the south-east coast, across a two-hex strait.
PRELUDE: list[Decision] = [
    ("load soldier+soldier+cavalry | soldier+archer+archer",),  # red's two freighters
    ("load soldier+soldier+cavalry | soldier+archer+archer",),  # blue's
    # placement: one ship at a time, red first; the two freighters carry different loads, so
    # each player says which goes first (variant 0: soldier+soldier+cavalry)
    ("place freighter", (-2, 5)), ("choose variant 0",), ("place freighter", (1, 4)), ("choose variant 0",),
    ("place freighter", (-1, 2)), ("place freighter", (2, 3)),
    ("place galleon", (-3, 5)), ("place galleon", (3, 2)),
    ("place caravel", (-4, 5)), ("place caravel", (1, 0)),
    ("place caravel", (-5, 3)), ("place caravel", (4, 1)),
    ("place caravel", (-1, 1)), ("place caravel", (0, 5)),
    # build round 1, red: knights off the freighters, a camp, a fort, two new units
    ("activate soldier", (-1, 2)), ("move", (-2, 3)),
    ("build camp", (-2, 3)),
    ("activate archer", (-1, 2)), ("move", (-2, 3)),
    ("activate soldier", (-2, 5)), ("move", (-2, 4)),
    ("activate archer", (-1, 2)), ("move", (-2, 4)),
    ("build fort", (-3, 4)), ("build soldier", (-3, 4)), ("build caravel", (-1, 3)),
    ("end turn",),
    # build round 1, blue
    ("activate soldier", (2, 3)), ("move", (1, 3)),
    ("build camp", (1, 3)),
    ("activate soldier", (1, 4)), ("move", (0, 3)),
    ("activate archer", (2, 3)), ("move", (1, 3)),
    ("activate archer", (2, 3)), ("move", (2, 2)),
    ("build fort", (2, 2)), ("build soldier", (0, 3)), ("build caravel", (0, 4)),
    ("end turn",),
    # build round 2, red: the freighter with a soldier and the cavalry crosses to the strait; a
    # castle next to the camp and the fort completes a Military Complex (3 tokens)
    ("activate freighter", (-2, 5)), ("move", (-1, 4)), ("end activation",),
    ("build castle", (-3, 3)), ("build soldier", (-2, 4)),
    ("end turn",),
    # build round 2, blue: a camp on the coast facing red
    ("build camp", (0, 3)),
    ("activate cavalry", (1, 4)), ("move", (1, 2)),
    ("end turn",),
]

# Red's first battle turn, step by step: (picture name, decisions, arrows drawn on it).
TURN: list[tuple[str, list[Decision], list[tuple[tuple[int, int], tuple[int, int]]]]] = [
    ("start", [], []),
    ("build", [("build wall 0", (-2, 3)), ("build archer", (-1, 2)), ("build soldier", (-1, 2))], []),
    ("shoot", [("activate archer", (-2, 3)), ("shoot", (0, 3)), ("end activation",)],
     [((-2, 3), (0, 3))]),
    ("retaliation", [("activate caravel", (0, 4)), ("attack", (-1, 4)), ("end activation",)],
     [((0, 4), (-1, 4))]),
    ("storm", [("activate cavalry", (-1, 4)), ("move", (0, 3))], [((-1, 4), (0, 3))]),
    ("rear", [("activate soldier", (1, 3)), ("attack", (0, 3)), ("end activation",)],
     [((1, 3), (0, 3))]),
    ("end", [("activate soldier", (-1, 4)), ("move", (0, 3))], [((-1, 4), (0, 3))]),
]

# The part of the board the pictures show, and their look.
VIEW = ((-4, 2), (-3, 5), (2, 1), (1, 4), (-1, 1))
ARROW = (255, 200, 0, 235)  # yellow, the pieces just showing through
SCALE = 1.3


def decision_code(state: GameState, decision: Decision) -> int:
    """The engine code of a decision written in words."""
    n = state.gmap.board.n_cells
    if len(decision) == 1:
        return A.encode_global(A.GLOBAL_NAMES.index(decision[0]), n)
    verb, hex_ = decision
    return A.encode(A.VERB_NAMES.index(verb), state.gmap.board.index[tuple(hex_)], n)


def apply_decisions(state: GameState, decisions: list[Decision], first: int = 0) -> None:
    """Apply each decision after checking it is legal; an illegal one raises ``ValueError``."""
    for i, decision in enumerate(decisions, first):
        code = decision_code(state, decision)
        if code not in legal_actions(state):
            raise ValueError(f"decision {i} {decision!r} is not legal here")
        apply_action(state, code)


def picture(state: GameState, arrows: list) -> Image.Image:
    """The board around the strait (with each hex's q,r), the step's arrows, and the top of the
    side panel (phase, whose turn, gold, silver, tokens), enlarged by ``SCALE``."""
    board = state.gmap.board
    full = Image.fromarray(render_rgb(state, coords=True)).convert("RGBA")
    cv = _Canvas(board)
    layer = Image.new("RGBA", full.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for a, b in arrows:
        (x0, y0), (x1, y1) = cv.centre(board.index[a]), cv.centre(board.index[b])
        dx, dy = x1 - x0, y1 - y0
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, dy / length
        start = (x0 + ux * HEX_SIZE * 0.3, y0 + uy * HEX_SIZE * 0.3)
        tip = (x1 - ux * HEX_SIZE * 0.3, y1 - uy * HEX_SIZE * 0.3)
        base = (tip[0] - ux * 14, tip[1] - uy * 14)
        draw.line([start, base], fill=ARROW, width=5)
        draw.polygon([tip, (base[0] - uy * 9, base[1] + ux * 9), (base[0] + uy * 9, base[1] - ux * 9)],
                     fill=ARROW)
    full = Image.alpha_composite(full, layer).convert("RGB")
    xs, ys = zip(*(cv.centre(board.index[c]) for c in VIEW))
    box = (int(min(xs) - HEX_SIZE), int(min(ys) - HEX_SIZE), int(max(xs) + HEX_SIZE), int(max(ys) + HEX_SIZE))
    width = box[2] - box[0]
    # the panel's lines down to the last player's tokens (its legend is in the page instead)
    lines = 4 + (state.retaliator >= 0) + (state.pending is not None)
    panel = 14 + 22 * lines + 8 + 70 * state.n_players
    height = max(box[3] - box[1], panel)
    out = Image.new("RGB", (width + cv.width - cv.map_width, height), PANEL_COLOUR)
    out.paste(full.crop((box[0], box[1], box[2], box[1] + height)), (0, 0))
    out.paste(full.crop((cv.map_width, 0, cv.width, panel)), (width, 0))
    big = out.resize((int(out.width * SCALE), int(out.height * SCALE)), Image.LANCZOS)
    return big.quantize(colors=96, dither=Image.Dither.NONE)  # a palette keeps the file small


def play(seed: int = SEED, out_dir: Path | None = None) -> tuple[GameState, dict[str, list[dict[str, Any]]]]:
    """Play the prelude and the turn; return the final state and each step's events. With
    ``out_dir``, write ``howto_<k>_<step>.png`` there after each step."""
    state = new_game(load_map(MAP), seed=seed)
    apply_decisions(state, PRELUDE)
    events: dict[str, list[dict[str, Any]]] = {}
    first = len(PRELUDE)
    for k, (name, decisions, arrows) in enumerate(TURN, 1):
        seen = len(state.events)
        apply_decisions(state, decisions, first)
        first += len(decisions)
        events[name] = state.events[seen:]
        if out_dir is not None:
            picture(state, arrows).save(out_dir / f"howto_{k}_{name}.png", optimize=True)
    return state, events


def battles(events: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Each battle of the turn in one line: who attacked, the dice, the result."""
    lines = []
    for step, evs in events.items():
        for e in evs:
            if e["event"] == "battle":
                lines.append(f"{step}: player_{e['player']} {e['dice']} dice, rolls {e['rolls']}, "
                             f"{'won' if e['won'] else 'lost'}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="play the example, write no pictures")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    state, events = play(args.seed, None if args.check else IMG)
    print("\n".join(battles(events)))
    print(f"tokens: {list(state.tokens)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

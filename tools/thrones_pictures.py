"""Pictures of Thrones boards for docs/thrones.md, drawn with Pillow from what a seat sees
(``views.tile_seen`` / ``piece_seen``: the other seat's secret half stays unknown):

    python -m tools.thrones_pictures [--out docs/img] [--seed 0]

writes ``thrones-legend.png`` (tiles and pieces), and from one seeded random game, in seat 0's
frame: ``thrones-setup.png`` (seat 0's setup done, the other half hidden), ``thrones-reveal.png``
(both setups shown), ``thrones-turn.png`` (a piece selected, its moves, switches, attacks and
shots marked) and ``thrones-end.png`` (the last position of the first seed from ``--seed`` on
that ends with a win). The game's own ``render("rgb_array")`` is a small block picture for
environments; this one is for people.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from games.thrones import codec
from games.thrones.config import FORTRESS, PIECE_NAMES, TILE_NAMES
from games.thrones.game import ThronesGame
from games.thrones.state import ThronesState
from games.thrones.views import PIECE_CHARS, piece_seen, tile_seen

CELL, MARGIN = 44, 22
TILE_FILL = {-1: (150, 150, 150), 0: (214, 226, 140), 1: (70, 140, 70), 2: (160, 130, 105),
             3: (90, 150, 215), 4: (185, 185, 195)}
SEAT_FILL = ((250, 250, 250), (35, 35, 35))
MARKS = {codec.MOVE: "move", codec.SWITCH: "switch", codec.ATTACK: "attack", codec.FIRE: "fire"}
MARK_RGB = {"move": (20, 20, 20), "switch": (30, 80, 220), "attack": (220, 30, 30), "fire": (240, 140, 0)}


def _font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def draw_cell(d: ImageDraw.ImageDraw, x0: int, y0: int, tile: int, breached: bool,
              piece: tuple[int, int] | None) -> None:
    """One cell: its tile (a Fortress with battlements, unknown as '?'), a breach as a red
    cross, a piece as a disc in its seat's colour with its letter."""
    x1, y1 = x0 + CELL, y0 + CELL
    d.rectangle([x0, y0, x1, y1], fill=TILE_FILL[tile], outline=(60, 60, 60))
    if tile == FORTRESS:
        for i in range(4):  # battlements along the top
            bx = x0 + 4 + i * 10
            d.rectangle([bx, y0 + 3, bx + 5, y0 + 8], fill=(110, 110, 120))
    if tile < 0:
        d.text((x0 + CELL // 2, y0 + CELL // 2), "?", fill=(235, 235, 235), font=_font(22), anchor="mm")
    if breached:
        d.line([x0 + 3, y0 + 3, x1 - 3, y1 - 3], fill=(200, 0, 0), width=3)
        d.line([x0 + 3, y1 - 3, x1 - 3, y0 + 3], fill=(200, 0, 0), width=3)
    if piece is not None:
        seat, ptype = piece
        r = CELL // 2 - 7
        cx, cy = x0 + CELL // 2, y0 + CELL // 2
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=SEAT_FILL[seat], outline=(0, 0, 0), width=2)
        d.text((cx, cy), PIECE_CHARS[ptype], fill=SEAT_FILL[1 - seat], font=_font(17), anchor="mm")


def board_image(st: ThronesState, seat: int = 0, marks: dict[int, str] | None = None,
                actor: int = -1) -> Image.Image:
    """The board as ``seat`` sees it, in seat 0's frame (its home at the bottom); ``marks``
    maps absolute cells to a kind of target; ``actor`` (a cell) is outlined in yellow."""
    b = st.board
    img = Image.new("RGB", (b.w * CELL + 2 * MARGIN, b.h * CELL + 2 * MARGIN), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for c in range(b.n):
        x, y = b.xy(c)
        q = piece_seen(st, seat, c)
        draw_cell(d, MARGIN + x * CELL, MARGIN + y * CELL, tile_seen(st, seat, c), st.breached[c],
                  (st.owner(q), st.ptype[q]) if q >= 0 else None)
    for c, kind in (marks or {}).items():
        x, y = b.xy(c)
        cx, cy, r = MARGIN + x * CELL + CELL // 2, MARGIN + y * CELL + CELL // 2, CELL // 2 - 3
        if kind == "move":
            d.ellipse([cx - 5, cy - 5, cx + 5, cy + 5], fill=MARK_RGB[kind])
        else:
            d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=MARK_RGB[kind], width=4)
    if actor >= 0:
        x, y = b.xy(actor)
        d.rectangle([MARGIN + x * CELL + 1, MARGIN + y * CELL + 1, MARGIN + (x + 1) * CELL - 1,
                     MARGIN + (y + 1) * CELL - 1], outline=(255, 210, 0), width=4)
    small = _font(12)
    for x in range(b.w):  # files a, b, ... below; ranks 1 .. h on the left (board.name)
        d.text((MARGIN + x * CELL + CELL // 2, MARGIN + b.h * CELL + 11), b.name((b.h - 1) * b.w + x)[0],
               fill=(0, 0, 0), font=small, anchor="mm")
    for y in range(b.h):
        d.text((MARGIN // 2, MARGIN + y * CELL + CELL // 2), str(b.h - y), fill=(0, 0, 0), font=small, anchor="mm")
    return img


def legend_image() -> Image.Image:
    """Every tile and every piece with its name."""
    names = [(t, None, TILE_NAMES[t]) for t in range(5)] + [(-1, None, "unknown (hidden)"), (4, "breached", "breached fortress")]
    names += [(0, p, PIECE_NAMES[p]) for p in range(len(PIECE_NAMES))]
    rows = (len(names) + 1) // 2
    img = Image.new("RGB", (2 * 230, rows * (CELL + 6) + 10), (255, 255, 255))
    d = ImageDraw.Draw(img)
    for i, (tile, piece, name) in enumerate(names):
        x0, y0 = 8 + (i // rows) * 230, 6 + (i % rows) * (CELL + 6)
        draw_cell(d, x0, y0, tile, piece == "breached", (0, piece) if isinstance(piece, int) else None)
        d.text((x0 + CELL + 10, y0 + CELL // 2), name, fill=(0, 0, 0), font=_font(15), anchor="lm")
    return img


def turn_marks(st: ThronesState) -> dict[int, str]:
    """The acting piece's targets now, by kind, in absolute cells."""
    seat, out = st.current_player(), {}
    for code in st.legal_actions():
        a = codec.decode(code, st.board.n)
        if a.verb in MARKS:
            out[st.board.rel(seat, a.cell)] = MARKS[a.verb]
    return out


def pictures(seed: int) -> dict[str, Image.Image]:
    """The doc's pictures from the first seed from ``seed`` on whose random game ends in a win."""
    game = ThronesGame()
    for s in range(seed, seed + 100):
        st, rng = game.new_state(seed=s), random.Random(s)
        shots: dict[str, Image.Image] = {}
        while not st.is_over():
            if "setup" not in shots and st.step[0] == st.steps and st.step[1] == st.steps // 2:
                shots["setup"] = board_image(st, 0)
            if "reveal" not in shots and st.revealed:
                shots["reveal"] = board_image(st, 0)
            marks = turn_marks(st) if st.revealed and st.actor >= 0 and st.current_player() == 0 else {}
            if "turn" not in shots and len(set(marks.values())) >= 3:
                shots["turn"] = board_image(st, 0, marks, actor=st.ppos[st.actor])
            st.apply_action(rng.choice(st.legal_actions()))
        if st.is_terminal() and len(shots) == 3:
            shots["end"] = board_image(st, 0)
            shots["legend"] = legend_image()
            return shots
    raise ValueError(f"no game among seeds {seed}..{seed + 99} ends in a win with every picture")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.thrones_pictures", description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/img", help="folder for thrones-*.png (default docs/img)")
    ap.add_argument("--seed", type=int, default=0, help="the first game seed tried")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if not out.is_dir():
        print(f"error: --out {str(out)[:80]} is not a folder", file=sys.stderr)
        return 2
    try:
        shots = pictures(args.seed)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    for name, img in shots.items():
        img.save(out / f"thrones-{name}.png", optimize=True)
        print(f"wrote {out / f'thrones-{name}.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

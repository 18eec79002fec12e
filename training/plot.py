"""``vigtavl plot runs/<run>``: the learning curves of a run as one PNG, drawn with Pillow.

Reads the run's SB3 CSV logs (``progress.csv`` and any ``progress-resume-*.csv``, merged by
``time/total_timesteps``) and draws two panels over timesteps: the mean episode reward of the
last 100 training episodes (``rollout/ep_rew_mean``; for an az run, whose x axis counts the
positions searched in self-play, its policy and value losses), and the win rates -- one line per eval
opponent (``eval/win_rate_<opponent>``, with markers) and the training games' win rate
(``game/win_rate``, dashed grey). matplotlib is not a dependency; Pillow is.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

X_KEY = "time/total_timesteps"
REWARD_KEY = "rollout/ep_rew_mean"
EVAL_PREFIX = "eval/win_rate_"
TRAIN_WIN_KEY = "game/win_rate"
AZ_POSITIONS_KEY = "selfplay/positions"  # written by training/az.py only
AZ_LOSSES = {"loss/policy": "policy loss", "loss/value": "value loss"}
SIZE = (1000, 760)
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM, PANEL_GAP = 80, 190, 80, 60, 80
DASH, GAP = 8.0, 6.0
COLORS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (255, 127, 14), (148, 103, 189),
          (140, 86, 75), (227, 119, 194), (23, 190, 207)]
GREY, AXIS, GRID = (140, 140, 140), (40, 40, 40), (225, 225, 225)

Series = tuple[str, list[float], list[float], tuple[int, int, int], bool]  # label, xs, ys, colour, markers


def read_logs(run_dir: str | Path) -> list[dict[str, float]]:
    """All logged rows of a run (numbers only, blanks dropped), ordered by timestep."""
    run_dir = Path(run_dir)
    files = sorted(run_dir.glob("progress*.csv"))
    if not files:
        raise FileNotFoundError(f"no progress*.csv in {run_dir} (is it a run folder from `vigtavl train`?)")
    rows = []
    for f in files:
        with f.open(newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                values = {k: _float(v) for k, v in row.items() if k and v not in (None, "")}
                values = {k: v for k, v in values.items() if v is not None}
                if X_KEY in values:
                    rows.append(values)
    return sorted(rows, key=lambda r: r[X_KEY])


def _float(text: str) -> float | None:
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def column(rows: list[dict[str, float]], key: str) -> tuple[list[float], list[float]]:
    pts = [(r[X_KEY], r[key]) for r in rows if key in r]
    return [p[0] for p in pts], [p[1] for p in pts]


def plot_run(run_dir: str | Path, out: str | Path | None = None) -> Path:
    """Write the run's learning-curve PNG (default ``runs/<run>/learning_curve.png``)."""
    run_dir = Path(run_dir)
    rows = read_logs(run_dir)
    if not rows:
        raise ValueError(f"{run_dir}: the logs hold no rows yet (train for at least one rollout)")
    out = Path(out) if out else run_dir / "learning_curve.png"
    eval_keys = sorted({k for r in rows for k in r if k.startswith(EVAL_PREFIX)})
    az = any(AZ_POSITIONS_KEY in r for r in rows)  # an az run: no episodes of its own, losses instead
    if az:
        top_title, x_label = "losses after each generation's updates", "positions searched in self-play"
        reward: list[Series] = [(label, *column(rows, key), COLORS[i], False)
                                for i, (key, label) in enumerate(AZ_LOSSES.items())]
    else:
        top_title, x_label = "mean episode reward (last 100 episodes)", "timesteps"
        reward = [("episode reward", *column(rows, REWARD_KEY), COLORS[0], False)]
    wins: list[Series] = [(k[len(EVAL_PREFIX):], *column(rows, k), COLORS[i % len(COLORS)], True)
                          for i, k in enumerate(eval_keys)]
    wins.append(("training games", *column(rows, TRAIN_WIN_KEY), GREY, False))
    x_max = max(r[X_KEY] for r in rows) or 1.0

    img = Image.new("RGB", SIZE, "white")
    draw = ImageDraw.Draw(img)
    font, big = ImageFont.load_default(size=13), ImageFont.load_default(size=17)
    draw.text((MARGIN_LEFT, 18), f"{run_dir.name}: learning curves", fill=AXIS, font=big)
    height = (SIZE[1] - MARGIN_TOP - PANEL_GAP - MARGIN_BOTTOM) // 2
    top1, top2 = MARGIN_TOP, MARGIN_TOP + height + PANEL_GAP
    ys = [y for s in reward for y in s[2]] or [0.0]
    lo, hi = min(ys), max(ys)
    pad = max(0.05, 0.1 * (hi - lo))
    draw_panel(draw, font, (MARGIN_LEFT, top1, SIZE[0] - MARGIN_RIGHT, top1 + height),
               top_title, reward, (0.0, x_max), (lo - pad, hi + pad))
    draw_panel(draw, font, (MARGIN_LEFT, top2, SIZE[0] - MARGIN_RIGHT, top2 + height),
               "win rate (eval opponents; training games dashed)", wins, (0.0, x_max), (0.0, 1.0))
    draw.text(((SIZE[0] - MARGIN_RIGHT + MARGIN_LEFT) // 2, SIZE[1] - 22), x_label, fill=AXIS, font=font, anchor="mm")
    img.save(out)
    return out


def draw_panel(draw: ImageDraw.ImageDraw, font: ImageFont.ImageFont, box: tuple[int, int, int, int], title: str,
               series: list[Series], x_range: tuple[float, float], y_range: tuple[float, float]) -> None:
    """Axes, grid, ticks, the lines and a legend right of the box."""
    x0, y0, x1, y1 = box
    (xa, xb), (ya, yb) = x_range, y_range
    if yb <= ya:
        ya, yb = ya - 1, yb + 1

    def px(x: float, y: float) -> tuple[float, float]:
        return x0 + (x - xa) / (xb - xa) * (x1 - x0), y1 - (y - ya) / (yb - ya) * (y1 - y0)

    draw.text((x0, y0 - 20), title, fill=AXIS, font=font)
    for t in nice_ticks(ya, yb):
        _, y = px(xa, t)
        draw.line([(x0, y), (x1, y)], fill=GRID)
        draw.text((x0 - 8, y), f"{t:g}", fill=AXIS, font=font, anchor="rm")
    for t in nice_ticks(xa, xb):
        x, _ = px(t, ya)
        draw.line([(x, y0), (x, y1)], fill=GRID)
        draw.text((x, y1 + 6), _short(t), fill=AXIS, font=font, anchor="mt")
    draw.rectangle([x0, y0, x1, y1], outline=AXIS)
    legend_y = y0 + 4
    for label, xs, ys, colour, markers in series:
        if not xs:
            continue
        pts = [px(x, y) for x, y in zip(xs, ys)]
        if markers:
            if len(pts) > 1:
                draw.line(pts, fill=colour, width=2)
            for x, y in pts:
                draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
        else:
            _dashed(draw, pts, colour) if colour == GREY else draw.line(pts, fill=colour, width=2)
            if len(pts) == 1:
                draw.ellipse([pts[0][0] - 2, pts[0][1] - 2, pts[0][0] + 2, pts[0][1] + 2], fill=colour)
        draw.line([(x1 + 12, legend_y + 7), (x1 + 34, legend_y + 7)], fill=colour, width=3)
        draw.text((x1 + 40, legend_y), f"{label} ({ys[-1]:.2f})", fill=AXIS, font=font)
        legend_y += 20


def _dashed(draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
    """A polyline drawn as dashes of DASH pixels with GAP pixels between them."""
    phase = 0.0  # distance along the current dash+gap period
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        length = math.hypot(bx - ax, by - ay)
        pos = 0.0
        while pos < length:
            on = phase < DASH
            step = min((DASH - phase) if on else (DASH + GAP - phase), length - pos)
            if on:
                f0, f1 = pos / length, (pos + step) / length
                draw.line([(ax + f0 * (bx - ax), ay + f0 * (by - ay)), (ax + f1 * (bx - ax), ay + f1 * (by - ay))],
                          fill=colour, width=2)
            pos += step
            phase = (phase + step) % (DASH + GAP)


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Round tick values covering ``[lo, hi]`` (steps of 1, 2 or 5 times a power of ten)."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    return [round(first + i * step, 10) for i in range(int((hi - first) / step + 1e-9) + 1)]


def _short(x: float) -> str:
    if abs(x) >= 1e6:
        return f"{x / 1e6:g}M"
    if abs(x) >= 1e3:
        return f"{x / 1e3:g}k"
    return f"{x:g}"

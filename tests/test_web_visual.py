"""Visual regression of the web board: screenshots compared with references, with a tolerance.

The board of a replayed battle (the same seeded games as tests/test_web_browser.py, the first
decision that fought a battle and took something) is shot at a laptop's 1280x720 and a phone's
420 pixels, animations off, and compared with ``tests/visual/board_<width>.png`` as Playwright's
``to_have_screenshot`` does: a pixel differs when one of its channels is off by more than
:data:`CHANNEL_TOLERANCE`, and the test fails when more than :data:`MAX_DIFF_RATIO` of the pixels
differ (or the size changed), so font hinting passes and a change of layout or drawing does not.

``VIGTAVL_UPDATE_VISUAL=1`` writes the references anew (look at them before committing); a
missing reference is written and the test fails, asking for it to be committed.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from test_web_browser import base_url, browser, results_dir, show_battle_frame  # noqa: F401

REFERENCES = Path(__file__).resolve().parent / "visual"
CHANNEL_TOLERANCE = 32  # of 255: anti-aliasing and hinting stay under it
MAX_DIFF_RATIO = 0.01  # of the pixels
UPDATE = os.environ.get("VIGTAVL_UPDATE_VISUAL") == "1"
VIEWPORTS = [(1280, 720), (420, 860)]


def diff_ratio(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ by more than the tolerance in any channel (1.0 when the
    sizes differ)."""
    if a.size != b.size:
        return 1.0
    x = np.asarray(a.convert("RGB"), dtype=np.int16)
    y = np.asarray(b.convert("RGB"), dtype=np.int16)
    return float((np.abs(x - y).max(axis=2) > CHANNEL_TOLERANCE).mean())


def test_the_comparison_sees_a_change_and_forgives_noise():
    base = Image.new("RGB", (100, 100), (40, 60, 90))
    noisy = Image.fromarray((np.asarray(base, dtype=np.int16) + 20).astype(np.uint8))
    moved = base.copy()
    moved.paste((255, 255, 255), (10, 10, 30, 30))  # 4% of the pixels
    assert diff_ratio(base, noisy) == 0.0 and diff_ratio(base, moved) == pytest.approx(0.04)
    assert diff_ratio(base, base.resize((100, 90))) == 1.0


@pytest.mark.parametrize("width,height", VIEWPORTS)
def test_the_board_looks_as_it_did(browser, base_url, width, height, tmp_path):  # noqa: F811
    ctx = browser.new_context(bypass_csp=True, viewport={"width": width, "height": height}, device_scale_factor=1)
    page = ctx.new_page()
    try:
        show_battle_frame(page, base_url)
        page.mouse.move(0, 0)  # no hover on the board
        shot = tmp_path / f"board_{width}.png"
        page.locator("#board").screenshot(path=str(shot), animations="disabled")
    finally:
        ctx.close()
    reference = REFERENCES / f"board_{width}.png"
    if UPDATE or not reference.is_file():
        REFERENCES.mkdir(exist_ok=True)
        Image.open(shot).save(reference, optimize=True)
        assert UPDATE, f"no reference picture: wrote {reference}; look at it and commit it"
        return
    with Image.open(shot) as new, Image.open(reference) as old:
        ratio = diff_ratio(new, old)
    assert ratio <= MAX_DIFF_RATIO, (f"the board at {width} px differs from {reference.name} in {ratio:.1%} "
                                     f"of its pixels (new picture: {shot}); VIGTAVL_UPDATE_VISUAL=1 rewrites it")

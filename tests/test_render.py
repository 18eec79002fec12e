"""Rendering: the text map, the RGB picture and the headless-safe human mode."""

from __future__ import annotations

import numpy as np
import pytest

from vigtavl_env import raw_env
from vigtavl_env.engine.hexgrid import Board
from vigtavl_env.engine.maps import SIDE_FOR_PLAYERS, GameMap
from vigtavl_env.engine.scenario import Scenario
from vigtavl_env.render import PLAYER_COLOURS, TOKEN_WIDTH, hex_token, render_ansi, render_rgb


def ring_map(n: int = 2) -> GameMap:
    board = Board(SIDE_FOR_PLAYERS[n])
    terrain = tuple(0 if max(abs(q), abs(r), abs(q + r)) == board.radius else 1 for q, r in board.coords)
    return GameMap("ring", n, terrain)


def busy_position():
    sc = Scenario(ring_map(), phase="battle")
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(0, "soldier", (0, 0))
    sc.development(0, "fort", (-1, 0))
    sc.artillery(0, (-2, 0))
    sc.unit(1, "archer", (2, 0))
    sc.wall(1, (2, 0), "W")
    sc.prisoner(1, "soldier", 0, (-1, 0))
    sc.unit(1, "caravel", (5, -5))
    return sc.build()


def midgame_env(n: int, mode: str, decisions: int = 60):
    e = raw_env(num_players=n, render_mode=mode)
    e.reset(seed=n)
    rng = np.random.default_rng(n)
    for _ in range(decisions):
        if e.game_state.is_over:
            break
        legal = np.flatnonzero(e.action_mask())
        e.step(int(legal[rng.integers(len(legal))]))
    return e


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rgb_array_is_a_uint8_picture(n):
    frame = midgame_env(n, "rgb_array").render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.shape[0] > 200 and frame.shape[1] > 300


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ansi_is_a_readable_text_map(n):
    text = midgame_env(n, "ansi").render()
    assert isinstance(text, str)
    lines = text.splitlines()
    rows = 2 * SIDE_FOR_PLAYERS[n] - 1
    assert all(len(line.split("|")[1].split()) == SIDE_FOR_PLAYERS[n] + rows // 2 - abs(i - rows // 2)
               for i, line in enumerate(lines[:rows]))  # the hexes between the row's labels
    assert "phase" in text and "player_0: gold" in text and "legend" in text


def test_hex_tokens_show_holder_development_units_and_prisoners():
    s = busy_position()
    idx = s.gmap.board.index
    on = lambda at: [u for u, c in enumerate(s.u_cell) if c == idx[at] and s.u_where[u] == 0]  # noqa: E731
    assert hex_token(s, idx[(0, 0)], on((0, 0))) == "0cs.."
    assert hex_token(s, idx[(-1, 0)], on((-1, 0))) == "0#*.."
    assert hex_token(s, idx[(-2, 0)], on((-2, 0))) == "0!..."
    assert hex_token(s, idx[(5, -5)], on((5, -5))) == "1v~~~"
    assert hex_token(s, idx[(1, 1)], []) == "." * TOKEN_WIDTH
    assert "player_1: gold" in render_ansi(s)


def test_picture_shows_walls_and_pieces_in_owner_colours():
    frame = render_rgb(busy_position())
    for colour in PLAYER_COLOURS[:2]:
        assert (frame == np.array(colour, dtype=np.uint8)).all(axis=-1).any()


def test_human_mode_never_blocks_or_fails_headless(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    e = midgame_env(2, "human", decisions=3)
    assert e.render() is None and e.last_frame is not None and e.last_frame.dtype == np.uint8
    e.close()


def test_render_without_a_mode_returns_none():
    e = raw_env()
    e.reset(seed=0)
    with pytest.warns(UserWarning):
        assert e.render() is None


def test_pending_choices_are_said_and_drawn():
    from vigtavl_env.render import PENDING_COLOUR, pending_text
    sc = Scenario(ring_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "archer", (1, 0))
    e = raw_env.from_state(sc.build(), render_mode="ansi")
    e.step(e.encode_action("activate cavalry", (0, 0)))
    before = render_rgb(e.game_state)
    e.step(e.encode_action("attack", (1, 0)))
    text = e.render()
    assert ("player_1 chooses who defends (1, 0) against player_0's cavalry from (0, 0) "
            "(in close combat, 3 dice)") in text
    frame = render_rgb(e.game_state)
    magenta = (frame == np.array(PENDING_COLOUR, dtype=np.uint8)).all(axis=-1)
    assert magenta.any() and not (before == np.array(PENDING_COLOUR, dtype=np.uint8)).all(axis=-1).any()
    fresh = raw_env(num_players=2, render_mode="ansi")
    fresh.reset(seed=0)
    assert pending_text(fresh.game_state) == "player_0 loads his two freighters (setup)"
    assert "player_0 loads his two freighters" in fresh.render()


def test_the_text_map_says_where_every_hex_is():
    """Rows labelled with r and their q range; with coords=True each hex shows its own q,r."""
    from vigtavl_env.engine import load_map, new_game
    state = new_game(load_map("duel"), seed=1)
    board = state.gmap.board
    rows = render_ansi(state).splitlines()[: 2 * board.radius + 1]
    for r, line in zip(range(-board.radius, board.radius + 1), rows):
        qs = [q for q in range(-board.radius, board.radius + 1) if abs(q + r) <= board.radius]
        assert line.startswith(f"r={r:<+3d}|") and line.endswith(f"| q {qs[0]}..{qs[-1]}")
        assert len(line.split("|")[1].split()) == len(qs)  # one token per hex of the row
    with_coords = render_ansi(state, coords=True)
    for q, r in board.coords:
        assert f" {q},{r} " in with_coords


def test_pictures_can_show_coordinates():
    e = raw_env(render_mode="rgb_array", seed=1)
    e.reset(seed=1)
    plain = e.render()
    e.unwrapped.render_coords = True
    labelled = e.render()
    assert labelled.shape == plain.shape and (labelled != plain).any()


"""Where each game's shipped network lies, and the model kinds' defaults: read by the tables of
kinds, the menus and the web app without loading torch (the players themselves are in
:mod:`agents.game_ppo` and :mod:`agents.game_ppo_search`)."""

from __future__ import annotations

from pathlib import Path

PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"
PPO_SEARCH_SIMULATIONS = 16  # ppo-search's default budget, simulations a decision


def pretrained_path(game: str) -> Path:
    """Where ``game``'s shipped model is, ``ppo:pretrained`` of that game (read when called, so a
    test may point it elsewhere)."""
    return PRETRAINED_DIR / game / f"{game}_ppo.zip"

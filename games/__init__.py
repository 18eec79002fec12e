"""Games behind one interface: what a game gives the layers above it (the arena, the training,
the search and the web app), and the registry that finds games by name.

    from games import load_game, game_names
    game = load_game("vigtavl")
    state = game.new_state(num_players=2, seed=7)
    while not state.is_over():
        state.apply_action(state.legal_actions()[0])
    state.returns()

The interface is :mod:`games.interface`; games are found through the entry-point group
``vigtavl.games`` (:mod:`games.registry`), so another package can add one.
"""

from .interface import Game, GameState, IllegalAction
from .registry import game_names, load_game

__all__ = ["Game", "GameState", "IllegalAction", "game_names", "load_game"]

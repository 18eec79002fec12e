"""Helpers for the web app's tests: live games driven from Python, and the way to a given moment.

:func:`path_to` finds the decisions a person would click to reach a moment (a retaliation, an
out-of-turn defence) in a seeded game: a stand-in bot decides for the person's seat, and the
games are deterministic, so the browser tests click the same decisions and meet the same moment.
"""

from __future__ import annotations

from collections.abc import Callable

from vigtavl_env.agent import agent_info
from arena.vigtavl_match import make_agent
from webapp.sessions import LiveGame


def path_to(seats: list[str], seed: int, moment: Callable[[LiveGame], bool], stand_in: str = "greedy",
            limit: int = 600) -> list[int] | None:
    """The person's decisions (env actions) from the start of game ``seed`` until ``moment`` holds
    with the person to decide; None if the game ends first."""
    game = LiveGame(seats, seed=seed)
    bot = make_agent(stand_in, seed=seed)
    bot.reset(seats.index("human"), seed)
    actions: list[int] = []
    while not game.over and len(actions) < limit:
        if not game.human_to_act():
            game.advance()
            continue
        if moment(game):
            return actions
        env = game.env
        obs = env.observe(env.agent_selection)
        action = int(bot.act(obs["observation"], obs["action_mask"], agent_info(env, env.agent_selection)))
        game.decide(action)
        actions.append(action)
    return None

"""The agents: the generic ones, which play any registered game through the game interface, and
each game's own bots.

- Generic: ``random`` and ``rollout:N`` (:mod:`agents.generic`), ``ppo:MODEL``
  (:mod:`agents.game_ppo`; Vigtavl's networks: :mod:`agents.ppo`), ``az:MODEL`` and
  ``az-search:MODEL`` (:mod:`agents.az`, searching with :mod:`agents.gumbel` through a game's
  step functions, :mod:`agents.game_steps`); the networks are :mod:`agents.network`.
- Each game's own: Vigtavl's heuristic bots, search bot and kinds table (:mod:`agents.heuristic`,
  :mod:`agents.tactics`, :mod:`agents.registry`); Thrones' bots (:mod:`agents.thrones`).

Agents are made by spec for a game (``agents.kinds.make_player("thrones", "search")``): one table
of kinds per game (:mod:`agents.kinds`), a game's own rows found through the ``vigtavl.game_agents``
entry-point group. Importing this package loads no game.
"""

"""The arena for any game of the registry: play games between agents, record them so they
replay exactly, and rate the agents (``arena.play``, ``arena.match``).

It reads only the game interface (:mod:`games.interface`) and the generic agents
(:mod:`agents.generic`); Vigtavl's own runner with its bots, workers and web app is
``agents.match``.
"""

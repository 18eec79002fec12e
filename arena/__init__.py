"""The arena: games played between agents, recorded so they replay exactly, rated, and played
by a person at the terminal. It reads the games only through the game interface
(:mod:`games.interface`, ``games.load_game``) and makes players with :mod:`agents.kinds`.

- Any game of the registry: :mod:`arena.play` (one game, its record, its replay),
  :mod:`arena.match` and :mod:`arena.tournament` (``vigtavl match --game thrones|pig``),
  :mod:`arena.terminal` (a person at the terminal).
- Vigtavl's richer runner, on the same interface: :mod:`arena.vigtavl_match` (workers,
  interruption, maps and variants), :mod:`arena.vigtavl_tournament`, its results files and
  records (:mod:`arena.records`), replay (:mod:`arena.replay`) and terminal player
  (:mod:`arena.human`).
- For both: ratings (:mod:`arena.ratings`: Elo and Weng-Lin, head to head) and Wilson intervals
  (:mod:`arena.stats`).
"""

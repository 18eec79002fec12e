"""Thrones, the project's second game: a square board, a secret setup of terrain and army, then
full information with coin-flip survival checks (docs/thrones-rules.md).

Modules: ``config`` (options), ``board`` (geometry), ``codec`` (actions), ``setup`` (the secret
setup and the reveal), ``rules`` and ``turn`` (play), ``state``, ``views`` (what a seat sees),
``serialize``, ``game`` (the interface's Game), ``soak`` and ``bench`` (commands).
"""

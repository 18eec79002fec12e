"""The project's tools, run from a checkout and not shipped in the wheel: the speed benchmarks
beside their peers (``bench``, ``bench_env``, ``bench_vector``, ``bench_search``,
``bench_train``: ``make bench``), the recorded games' checks (``golden``; ``golden_game`` for
Thrones and any game of the interface), the kept tables'
check (``check_kept``) and the narrated game (``demo``: ``make watch``).

Each runs as ``python -m tools.NAME`` from the repository root. They import the project's
packages and nothing imports them but the tests.
"""

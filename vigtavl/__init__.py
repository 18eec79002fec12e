"""The ``vigtavl`` command line, the top floor: it imports the environment (``vigtavl_env``),
the agents (``agents``) and training (``training``); nothing imports it.

``vigtavl --help`` lists the commands; ``python -m vigtavl`` is the same.
"""

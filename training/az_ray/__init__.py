"""The AlphaZero loop on Ray (``vigtavl az train --ray``), beside the one-process generation loop
of training/az.py, whose search, network, buffer, update and checkpoints it uses as they are.

- ``config.py``: the ``ray:`` group of an az config.
- ``records.py``: a finished game as actors send it; its value targets.
- ``actors.py``: self-play actors, the weight store, the driver's pool of actors.
- ``learner.py``: the buffer, the capped updates, the published versions, the lag.
- ``evaluator.py``: the panel, the gate.
- ``loop.py``: the driver: :func:`training.az_ray.loop.train_az_ray`.
- ``value_check.py``: the value head's agreement with the result, phase by phase.

Importing this package imports neither Ray nor torch."""

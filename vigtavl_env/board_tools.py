"""What reads Vigtavl's engine states of one board, made once per process: the action codec per
board size, and the observation encoders per map and round count. The game interface's adapter
(:mod:`vigtavl_env.game`) and the self-play steps (:mod:`vigtavl_env.game_steps`) both read them.
"""

from __future__ import annotations

from .codec import ActionCodec
from .engine.state import GameState as EngineState
from .observation import ObservationEncoder


class BoardTools:
    """The codec of one board size, and its encoders per map and round count."""

    def __init__(self, codec: ActionCodec) -> None:
        self.codec = codec
        self._encoders: dict[tuple, ObservationEncoder] = {}

    def encoder(self, engine: EngineState) -> ObservationEncoder:
        key = (engine.gmap, engine.config.rounds_per_phase)
        enc = self._encoders.get(key)
        if enc is None:
            enc = self._encoders[key] = ObservationEncoder(engine.gmap, engine.config.rounds_per_phase)
        return enc


_BY_SIDE: dict[int, BoardTools] = {}


def tools_for(engine: EngineState) -> BoardTools:
    """The tools of ``engine``'s board size (a codec depends on the board's side alone)."""
    side = engine.gmap.board.side
    tools = _BY_SIDE.get(side)
    if tools is None:
        tools = _BY_SIDE[side] = BoardTools(ActionCodec(engine.gmap.board))
    return tools

"""The action codec: environment action indices <-> engine action codes, by table lookup.

The environment's action space is one ``Discrete(N)`` laid over the axial square tensor that the
observation uses (``H = W = 2R + 1`` for a board of radius ``R``, ``HW = H * W``)::

    index = verb * HW + tensor_cell          for the 55 hex verbs (verb 0..54)
    index = 55 * HW + g                      for the 6 global verbs (g 0 end activation, 1 end
                                             turn, 2 no defence, 3-5 load the freighters)
    N     = 55 * HW + 6

``tensor_cell = (r + R) * W + (q + R)`` for the hex at axial ``(q, r)`` (``Board.tensor_index``).
Tensor cells off the hexagon (the corners of the square) never hold a legal action.

The engine numbers the same decisions ``verb * n_cells + cell`` (see
``vigtavl_env/engine/actions.py``). Two integer arrays built once per board translate between
the two numberings, so ``encode``/``decode`` are a single lookup and a whole legal list becomes a
mask in one typed loop. Both numberings ascend together (the hexes are numbered row by row, as
the tensor's cells are), so the engine's sorted legal list is sorted as env indices too.

Worked example, 2-player board (R = 5, W = 11, HW = 121, 91 hexes, N = 55 * 121 + 6 = 6661):
moving the active unit (verb 37) to the hex at axial ``(3, -1)`` -- engine cell 37, tensor cell
``(-1 + 5) * 11 + (3 + 5) = 52`` -- is env index ``37 * 121 + 52 = 4529`` and engine code
``37 * 91 + 37 = 3404``; ending the turn is env index ``55 * 121 + 1 = 6656`` (engine code
``55 * 91 + 1 = 5006``); choosing the soldier on that hex (verb 49, e.g. to defend) is env
index ``49 * 121 + 52 = 5981``.
"""

from __future__ import annotations

import numpy as np

from .engine import actions as A
from .engine.hexgrid import Axial, Board

NO_CODE = -1  # engine_of_env entry for tensor cells off the hexagon


class ActionCodec:
    """Translation tables between env action indices and engine codes for one board.

    Attributes:
        n_cells: hexes on the board; ``width``: side of the axial square; ``hw``: its area.
        n_actions: size of the env action space.
        env_of_engine: int64 array, engine code -> env index.
        engine_of_env: int64 array, env index -> engine code, or ``NO_CODE`` off the hexagon.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.n_cells = board.n_cells
        self.width = board.width
        self.hw = board.width * board.width
        self.n_actions = A.N_HEX_VERBS * self.hw + A.N_GLOBAL_VERBS
        self.n_engine = A.n_actions(self.n_cells)
        tcell = np.asarray(board.tensor_index, dtype=np.int64)
        verbs = np.arange(A.N_HEX_VERBS, dtype=np.int64)[:, None]
        hex_part = (verbs * self.hw + tcell[None, :]).ravel()
        glob = A.N_HEX_VERBS * self.hw + np.arange(A.N_GLOBAL_VERBS, dtype=np.int64)
        self.env_of_engine = np.concatenate([hex_part, glob])
        self.engine_of_env = np.full(self.n_actions, NO_CODE, dtype=np.int64)
        self.engine_of_env[self.env_of_engine] = np.arange(self.n_engine, dtype=np.int64)
        self._env_list = self.env_of_engine.tolist()  # plain ints for scalar lookups
        self._engine_list = self.engine_of_env.tolist()

    # ------------------------------------------------------------------ scalar translation
    def to_env(self, code: int) -> int:
        """Env index of an engine code (ValueError outside the engine's range)."""
        if not 0 <= code < self.n_engine:
            raise ValueError(f"engine action code {code!r} is outside 0..{self.n_engine - 1}")
        return self._env_list[code]

    def to_engine(self, index: int) -> int:
        """Engine code of an env index (ValueError outside the space or off the hexagon)."""
        if not 0 <= index < self.n_actions:
            raise ValueError(f"action {index!r} is outside the action space 0..{self.n_actions - 1}")
        code = self._engine_list[index]
        if code == NO_CODE:
            verb, tcell = divmod(index, self.hw)
            row, col = divmod(tcell, self.width)
            raise ValueError(f"action {index} ({A.VERB_NAMES[verb]} at tensor row {row}, col {col}) "
                             "is on a tensor cell off the hexagon")
        return code

    def from_verb(self, verb: str, at: Axial | None = None) -> int:
        """Env index of a decision named by verb (``actions.VERB_NAMES`` or a global name) and hex."""
        if verb in A.GLOBAL_NAMES:
            return A.N_HEX_VERBS * self.hw + A.GLOBAL_NAMES.index(verb)
        if verb not in A.VERB_NAMES:
            raise ValueError(f"unknown verb {verb!r}; known: {list(A.VERB_NAMES) + list(A.GLOBAL_NAMES)}")
        if at is None or tuple(at) not in self.board.index:
            raise ValueError(f"verb {verb!r} needs a hex on the board, got {at!r}")
        cell = self.board.index[tuple(at)]
        return A.VERB_NAMES.index(verb) * self.hw + self.board.tensor_index[cell]

    # ------------------------------------------------------------------ vectorised
    def fill_mask(self, mask: np.ndarray, codes: list[int]) -> np.ndarray:
        """Write a 0/1 mask of the env actions for a list of engine codes into ``mask``, a 1-D
        array (a row of a batch: nothing is allocated); contiguous one-byte rows (bool, int8,
        uint8) take the typed loop, others numpy's indexing."""
        mask[:] = 0
        if mask.dtype.itemsize == 1 and mask.flags.c_contiguous:
            _set_ones(mask.view(np.uint8), self.env_of_engine, codes)
        elif codes:
            mask[self.legal_indices(codes)] = 1
        return mask

    def new_mask(self, codes: list[int]) -> np.ndarray:
        """A fresh 0/1 int8 mask of the env actions for a list of engine codes."""
        mask = np.zeros(self.n_actions, dtype=np.uint8)
        _set_ones(mask, self.env_of_engine, codes)
        return mask.view(np.int8)

    def legal_indices(self, codes: list[int]) -> np.ndarray:
        """Env indices of a list of engine codes (same order), int64."""
        out = np.empty(len(codes), dtype=np.int64)
        _gather(out, self.env_of_engine, codes)
        return out


def mask_indices(mask: np.ndarray) -> np.ndarray:
    """The legal indices of a 0/1 action mask, ascending (``np.flatnonzero(mask)``). A one-byte
    mask (the env's int8) is read as bool, which numpy scans about five times faster: on the
    6,661-wide 2-player row, about 3.5 us instead of 19 us. A row asks ``ndarray.nonzero``
    itself: ``np.flatnonzero``'s Python layers (ravel, dispatch) cost as much again as the scan.
    Any other mask goes through numpy as it is."""
    if mask.dtype.itemsize == 1 and mask.dtype.kind in "biu":
        mask = mask.view(np.bool_)
    if mask.ndim == 1:
        return mask.nonzero()[0]
    return np.flatnonzero(mask)


# Typed loops in the compiled build (codec.pxd): a list of a few dozen codes costs less this way
# than turned into an index array for numpy's fancy indexing.
def _set_ones(row: np.ndarray, env_of: np.ndarray, codes: list[int]) -> None:
    """``row[env_of[c]] = 1`` for every code ``c``."""
    for k in range(len(codes)):
        row[env_of[codes[k]]] = 1


def _gather(out: np.ndarray, env_of: np.ndarray, codes: list[int]) -> None:
    """``out[k] = env_of[codes[k]]`` for every k."""
    for k in range(len(codes)):
        out[k] = env_of[codes[k]]

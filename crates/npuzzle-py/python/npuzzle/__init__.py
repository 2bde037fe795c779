"""npuzzle: sliding-tile puzzles at the speed of Rust.

Single boards are text in any form the ``npuzzle`` command reads (``"8 1 3/4 0 2/7 6 5"``,
``"813402765"``, grid lines) or a sequence of tiles with ``size="WxH"``; 0 is the blank.
The default goal has the tiles in order and the blank last.

Batch calls take an ``(N, cells)`` array of tiles and return arrays; they release the GIL
and run on every core:

>>> import npuzzle
>>> boards = npuzzle.scrambles("3x3", 4, seed=1)
>>> npuzzle.distances(boards, "3x3").shape
(4,)
>>> npuzzle.solve("8 1 3/4 0 2/7 6 5").length
14
"""

from typing import Any as _Any, Optional as _Optional

import numpy as _np

from ._core import (
    PatternDatabases,
    Solution,
    __version__,
    apply,
    convert_moves,
    format_board,
    is_solvable,
    parse_board,
    scramble,
    scrambles,
    solve,
    verify,
)
from . import _core

__all__ = [
    "PatternDatabases",
    "Solution",
    "__version__",
    "apply",
    "convert_moves",
    "distances",
    "estimates",
    "format_board",
    "is_solvable",
    "parse_board",
    "scramble",
    "scrambles",
    "solvable",
    "solve",
    "verify",
]


def _boards(boards: _Any) -> _np.ndarray:
    """An ``(N, cells)`` uint8 C-contiguous array of ``boards``; ValueError if it cannot be."""
    a = _np.asarray(boards)
    if a.ndim == 1 and a.size:
        a = a.reshape(1, -1)
    if a.ndim != 2:
        raise ValueError(f"boards: expected an (N, cells) array, found shape {a.shape}")
    if a.dtype != _np.uint8:
        if not _np.issubdtype(a.dtype, _np.integer):
            raise ValueError(f"boards: expected integer tiles, found dtype {a.dtype}")
        if a.size and (a.min() < 0 or a.max() > 255):
            raise ValueError(
                f"boards: expected tiles 0 to 255, found {int(a.min())} to {int(a.max())}"
            )
    return _np.ascontiguousarray(a, dtype=_np.uint8)


def distances(
    boards: _Any,
    size: str,
    goal: _Any = None,
    pdbs: _Optional[PatternDatabases] = None,
    threads: int = 0,
) -> _np.ndarray:
    """Optimal distances (int32) of an ``(N, cells)`` array of boards to the goal.

    By a distance table on boards of up to 12 cells, by pattern-database IDA* with
    ``pdbs``, else by IDA* with linear conflict; -1 for a board that cannot reach the goal.
    """
    return _core._distances(_boards(boards), size, goal, pdbs, threads)


def estimates(
    boards: _Any,
    size: str,
    heuristic: str = "manhattan",
    goal: _Any = None,
    pdbs: _Optional[PatternDatabases] = None,
    threads: int = 0,
) -> _np.ndarray:
    """Admissible estimates (int32): manhattan, linear-conflict, walking-distance,
    misplaced, or pdb (with ``pdbs``)."""
    return _core._estimates(_boards(boards), size, heuristic, goal, pdbs, threads)


def solvable(boards: _Any, size: str, goal: _Any = None, threads: int = 0) -> _np.ndarray:
    """Whether each board can reach the goal (bool array)."""
    return _core._solvable(_boards(boards), size, goal, threads)


def _register() -> None:
    try:
        import gymnasium
    except ImportError:  # gymnasium is optional
        return
    if "npuzzle/SlidingPuzzle-v0" not in gymnasium.registry:
        gymnasium.register(
            id="npuzzle/SlidingPuzzle-v0",
            entry_point="npuzzle.env:SlidingPuzzleEnv",
            vector_entry_point="npuzzle.env:SlidingPuzzleVectorEnv",
        )


_register()

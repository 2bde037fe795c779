"""Arrays: ``dask.array`` in, ``dask.array`` out, the batch calls mapped over blocks."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._cluster import Databases, _need_dask, _pdbs


def _block(fn: str, size: str, goal: Any, databases: Optional[Databases], extra: tuple):
    import npuzzle

    def run(block: np.ndarray) -> np.ndarray:
        if block.shape[0] == 0:
            return np.zeros((0,), dtype=np.int32)
        f = getattr(npuzzle, fn)
        return f(block, size, *extra, goal=goal, pdbs=_pdbs(databases), threads=1)

    return run


def _map_boards(boards: Any, fn: str, size: str, goal: Any, databases: Any, extra: tuple):
    _need_dask()
    import dask.array as da

    from .._core import parse_board

    cells = _cells(size)
    if not isinstance(boards, da.Array):
        boards = da.from_array(np.asarray(boards))
    if boards.ndim != 2 or boards.shape[1] != cells:
        raise ValueError(
            f"boards: expected an (N, {cells}) array for {size}, found shape {boards.shape}"
        )
    if goal is not None:
        parse_board(goal, size)
    boards = boards.rechunk({1: -1})
    return boards.map_blocks(
        _block(fn, size, goal, databases, extra),
        drop_axis=1,
        dtype=np.int32,
        meta=np.zeros((0,), dtype=np.int32),
    )


def _cells(size: str) -> int:
    try:
        w, h = (int(x) for x in size.lower().split("x"))
    except ValueError:
        raise ValueError(f"size: expected WxH, found {size!r}") from None
    return w * h


def distances(
    boards: Any,
    size: str,
    goal: Any = None,
    databases: Optional[Databases] = None,
):
    """Optimal distances of a ``dask.array`` of boards (``(N, cells)`` tiles): a lazy
    ``int32`` array of N, computed block by block on the workers by
    :func:`npuzzle.distances` (one thread a block: Dask's worker threads are the
    parallelism); -1 for a board that cannot reach the goal.

    >>> import dask.array as da, npuzzle, npuzzle.dask
    >>> boards = da.from_array(npuzzle.scrambles("3x3", 1000, seed=1), chunks=(250, 9))
    >>> npuzzle.dask.distances(boards, "3x3").mean().compute()  # doctest: +SKIP
    21.9...
    """
    return _map_boards(boards, "distances", size, goal, databases, ())


def estimates(
    boards: Any,
    size: str,
    heuristic: str = "manhattan",
    goal: Any = None,
    databases: Optional[Databases] = None,
):
    """Admissible estimates of a ``dask.array`` of boards, as :func:`npuzzle.estimates`
    (manhattan, linear-conflict, walking-distance, misplaced, or pdb with ``databases``),
    lazily, block by block."""
    return _map_boards(boards, "estimates", size, goal, databases, (heuristic,))

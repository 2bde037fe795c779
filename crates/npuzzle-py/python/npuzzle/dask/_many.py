"""Many boards: the library's ``solve`` over the cluster, in tasks of about a second."""

from __future__ import annotations

import math
import time
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Union

import numpy as np

from .. import _core
from .._core import Solution
from ._cluster import Databases, _Progress, _client, _need_dask, _pdbs, _threads


class Failure(NamedTuple):
    """A board that could not be answered, in its place among the answers: its place in
    the input (from 0; the line number in the command), the board as given, and what was
    wrong, in the library's words."""

    index: int
    board: str
    error: str


def _text(board: Any) -> Any:
    """A board as text where it is an array row (small to send), else as given."""
    if isinstance(board, np.ndarray):
        return [int(t) for t in board]
    return board


def _solve_batch(
    start: int,
    boards: List[Any],
    size: Optional[str],
    databases: Optional[Databases],
    options: Dict[str, Any],
) -> tuple:
    """Runs on a worker: the answers to ``boards`` (a Failure for a bad one), and the
    seconds they took."""
    pdbs = _pdbs(databases)
    t0 = time.perf_counter()
    out: List[Union[Solution, Failure]] = []
    for i, b in enumerate(boards):
        try:
            out.append(_core.solve(b, size=size, pdbs=pdbs, **options))
        except (ValueError, TimeoutError) as e:
            out.append(Failure(start + i, str(b), str(e)))
    return out, time.perf_counter() - t0


_SOLVE_OPTIONS = {
    "goal",
    "algorithm",
    "heuristic",
    "weight",
    "time_limit",
    "notation",
    "metric",
    "solutions",
    "threads",
    "beam_width",
    "exact",
    "pdb",
}


def solve_many(
    boards: Iterable[Any],
    size: Optional[str] = None,
    client: Any = None,
    *,
    databases: Optional[Databases] = None,
    task_seconds: float = 1.0,
    progress: Any = None,
    errors: str = "report",
    **options: Any,
) -> List[Union[Solution, Failure]]:
    """Solves every board on the cluster; the answers in input order.

    ``boards``: text in any form ``npuzzle.solve`` reads, tile sequences, or the rows of an
    ``(N, cells)`` array (then give ``size``). ``options`` are ``npuzzle.solve``'s (goal,
    algorithm, heuristic, weight, time_limit, notation, metric, solutions, threads,
    beam_width, exact, pdb);
    ``threads`` defaults to 1, since the cluster's worker threads are the parallelism.
    ``databases`` (a :class:`Databases`) gives every worker pattern databases.

    Boards go out in tasks of about ``task_seconds`` each: a first round of small tasks
    measures the time a board takes, the rest are sized from it (never fewer tasks than
    worker threads while boards remain). ``progress``: a callable ``(done, total)``, True
    for a bar (tqdm where installed), None for a bar only on a terminal, False for none.
    ``errors="report"`` puts a :class:`Failure` in a bad board's place and answers the
    rest; ``errors="raise"`` raises ValueError for the first bad board.

    >>> from npuzzle.dask import solve_many
    >>> [s.length for s in solve_many(["8 1 3/4 0 2/7 6 5", "1 2 3/4 5 6/7 0 8"])]  # doctest: +SKIP
    [14, 1]
    """
    unknown = set(options) - _SOLVE_OPTIONS
    if unknown:
        raise TypeError(f"solve_many: unexpected options {sorted(unknown)}")
    if errors not in ("report", "raise"):
        raise ValueError(f"errors: expected 'report' or 'raise', found {errors!r}")
    if task_seconds <= 0 or not math.isfinite(task_seconds):
        raise ValueError(f"task_seconds: expected a positive number, found {task_seconds}")
    options.setdefault("threads", 1)
    items = [_text(b) for b in boards]
    n = len(items)
    answers: List[Any] = [None] * n
    if n == 0:
        return []
    _need_dask()
    from distributed import as_completed

    bar = _Progress(progress, n, "solve")
    try:
        with _client(client) as c:
            slots = _threads(c)
            pending = as_completed()
            starts: Dict[Any, int] = {}
            nxt = 0

            def submit(k: int) -> None:
                nonlocal nxt
                chunk = items[nxt : nxt + k]
                fut = c.submit(_solve_batch, nxt, chunk, size, databases, options, pure=False)
                starts[fut] = nxt
                pending.add(fut)
                nxt += len(chunk)

            # First round: small tasks that measure what a board costs here.
            first = max(1, min(4, n // (2 * slots) or 1))
            for _ in range(slots):
                if nxt < n:
                    submit(first)
            spent, measured, done = 0.0, 0, 0
            for fut in pending:
                out, seconds = fut.result()
                for a in out:
                    if isinstance(a, Failure) and errors == "raise":
                        raise ValueError(f"board {a.index} ({a.board!r}): {a.error}")
                start = starts.pop(fut)
                answers[start : start + len(out)] = out
                spent += seconds
                measured += len(out)
                done += len(out)
                bar.update(done, len(out))
                if nxt < n:
                    per_board = spent / max(1, measured)
                    k = max(1, math.ceil(task_seconds / max(per_board, 1e-6)))
                    # Keep every worker thread busy while boards remain.
                    k = min(k, max(1, math.ceil((n - nxt) / slots)))
                    submit(k)
    finally:
        bar.close()
    return answers

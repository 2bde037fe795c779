"""One hard board: each IDA* pass's subtrees searched on the workers, the bounds from
the library (``_core._split_bound``)."""

from __future__ import annotations

import math
import os
import time
from typing import Any, Callable, Dict, List, Optional

from .. import _core
from .._core import PatternDatabases, Solution
from ._cluster import Databases, _client, _need_dask, _threads


def _least(a: Optional[int], b: Optional[int]) -> Optional[int]:
    """The smaller of two next bounds, either of which may be missing (nothing cut)."""
    return b if a is None else (a if b is None else min(a, b))


def _subtrees(
    board: str,
    goal: Optional[str],
    databases: Databases,
    bound: int,
    paths: List[str],
    stop: str,
    deadline: Optional[float],
) -> tuple:
    """Runs on a worker: one pass's subtrees below ``paths``, in order, one root at a time;
    stops at the first solution, or between roots once the driver sets the event named
    ``stop`` (another task found one, or time is up). (found, next bound, expanded,
    generated, seconds, stopped)."""
    from distributed import Event

    pdbs = databases.get()
    t0 = time.perf_counter()
    event = Event(stop)
    polled = t0
    nb: Optional[int] = None
    e = g = 0
    for i, path in enumerate(paths):
        now = time.perf_counter()
        # The event lives on the scheduler: asked at the start and every 0.2 s or so.
        if i == 0 or now - polled >= 0.2:
            polled = now
            if event.is_set():
                return None, nb, e, g, now - t0, True
        left = None if deadline is None else deadline - time.time()
        if left is not None and left <= 0:
            return None, nb, e, g, now - t0, True
        try:
            found, nb2, e2, g2 = _core._pass_subtrees(board, pdbs, bound, [path], goal=goal, time_limit=left)
        except TimeoutError:
            return None, nb, e, g, time.perf_counter() - t0, True
        e += e2
        g += g2
        nb = _least(nb, nb2)
        if found is not None:
            return (i, found[1]), nb, e, g, time.perf_counter() - t0, False
    return None, nb, e, g, time.perf_counter() - t0, False


def _local_pass(text: str, goal_text: Optional[str], pdbs: PatternDatabases, bound: int) -> tuple:
    """One pass within ``bound`` in this process: (solution or None, next bound, expanded,
    generated, expanded this pass, seconds)."""
    t0 = time.perf_counter()
    paths, found, nb, e, g = _core._pass_frontier(text, pdbs, bound, 1, goal=goal_text)
    this = e
    if found is None and paths:
        sub_found, nb2, e2, g2 = _core._pass_subtrees(text, pdbs, bound, paths, goal=goal_text)
        this += e2
        g += g2
        e += e2
        if sub_found is not None:
            found = sub_found[1]
        nb = _least(nb, nb2)
    return found, nb, e, g, this, time.perf_counter() - t0


def _cluster_pass(
    c: Any,
    text: str,
    goal_text: Optional[str],
    databases: Databases,
    pdbs: PatternDatabases,
    bound: int,
    want_tasks: int,
    deadline: Optional[float],
) -> tuple:
    """One pass within ``bound`` over the cluster: (solution or None, next bound, expanded,
    generated, expanded this pass, tasks, seconds the tasks took together, whether a task
    was stopped by the clock)."""
    # Many roots a task: their sizes vary a thousandfold.
    paths, found, nb, e, g = _core._pass_frontier(text, pdbs, bound, want_tasks * 32, goal=goal_text)
    this = e
    tasks, busy, stopped = 0, 0.0, False
    if found is not None or not paths:
        return found, nb, e, g, this, tasks, busy, stopped
    # Consecutive roots a task, run in the one-machine search's order (the earlier a
    # task's roots, the higher its priority): when one finds a solution the others stop
    # between roots, so the last pass does about the work the one-machine pass does
    # before its solution.
    from distributed import Event, as_completed

    k = min(want_tasks, len(paths))
    step = math.ceil(len(paths) / k)
    pieces = [paths[i : i + step] for i in range(0, len(paths), step)]
    stop = f"npuzzle-split-{os.getpid()}-{id(pieces)}-{bound}-{time.time_ns()}"
    event = Event(stop, client=c)
    wall_deadline = None if deadline is None else time.time() + (deadline - time.perf_counter())
    futures = [
        c.submit(_subtrees, text, goal_text, databases, bound, p, stop,
                 wall_deadline, pure=False, priority=len(pieces) - j)
        for j, p in enumerate(pieces)
    ]
    tasks = len(futures)
    for fut in as_completed(futures):
        sf, nb2, e2, g2, secs, cut = fut.result()
        e += e2
        g += g2
        this += e2
        busy += secs
        stopped |= cut
        nb = _least(nb, nb2)
        if sf is not None and found is None:
            found = sf[1]
            # The others stop at their next root; their work is counted as it comes back.
            event.set()
        if deadline is not None and time.perf_counter() >= deadline:
            event.set()
    return found, nb, e, g, this, tasks, busy, stopped


def solve(
    board: Any,
    client: Any = None,
    *,
    databases: Databases,
    goal: Any = None,
    size: Optional[str] = None,
    notation: str = "tile",
    tasks_per_thread: int = 64,
    task_seconds: float = 1.0,
    local_seconds: float = 1.0,
    time_limit: Optional[float] = None,
    progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
) -> Solution:
    """One board solved optimally by IDA* with pattern databases, its passes split over the
    cluster.

    Each pass expected to take more than ``local_seconds`` goes out: the driver expands
    the search tree a few levels into a frontier of roots, sends them with the pass's
    bound in tasks of consecutive roots (about ``task_seconds`` each by the node rate
    measured so far, at most ``tasks_per_thread`` per worker thread; the roots' paths are a
    few bytes each, the databases are loaded by each worker once), run in the frontier's
    order, and gathers the smallest f beyond the bound and any solution. The first pass
    that finds one ends the search, its bound the optimum; the other tasks stop at their
    next root. Smaller passes run in this process. The node counts are the one-machine
    search's, but for the order within the last pass.

    ``progress`` is called after each pass with a dict (algorithm, bound proven, expanded,
    seconds, tasks); ``time_limit`` (seconds) raises TimeoutError with the bound proven.
    """
    _need_dask()
    if not isinstance(tasks_per_thread, int) or tasks_per_thread < 1:
        raise ValueError(f"tasks_per_thread: expected at least 1, found {tasks_per_thread!r}")
    if not (task_seconds > 0 and math.isfinite(task_seconds)):
        raise ValueError(f"task_seconds: expected a positive number, found {task_seconds!r}")
    if not (local_seconds >= 0 and math.isfinite(local_seconds)):
        raise ValueError(f"local_seconds: expected 0 or more seconds, found {local_seconds!r}")
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"time_limit: expected a positive number of seconds, found {time_limit!r}")
    tiles, sz = _core.parse_board(board, size)
    text = _core.format_board(tiles, sz)
    goal_text = None if goal is None else _core.format_board(_core.parse_board(goal, sz)[0], sz)
    if databases.size != sz:
        raise ValueError(f"databases: expected them for {sz}, found them for {databases.size}")
    pdbs = databases.get()
    if goal_text is not None and pdbs.goal != goal_text:
        raise ValueError(f"databases: they are for goal {pdbs.goal}, not {goal_text}")
    started = time.perf_counter()
    if not _core.is_solvable(text, goal_text, sz):
        return _core.solve(text, goal=goal_text, algorithm="idastar", pdbs=pdbs, notation=notation)
    # The passes' bounds are the library's (the estimate, then each pass's smallest f
    # beyond its bound, to the parity every solution shares).
    bound = _core._split_bound(text, pdbs, goal=goal_text, first=True)
    expanded = generated = 0
    last_pass = 0  # nodes the last pass expanded
    growth = 6.0  # how much bigger each pass is than the one before, measured as we go
    rate = 2e7  # nodes a second on one worker thread, measured as we go
    deadline = None if time_limit is None else started + time_limit

    def report(tasks: int) -> None:
        if progress is not None:
            progress(
                {
                    "algorithm": "idastar",
                    "bound": bound,
                    "expanded": expanded,
                    "seconds": time.perf_counter() - started,
                    "tasks": tasks,
                }
            )

    def out_of_time() -> None:
        if deadline is not None and time.perf_counter() >= deadline:
            raise TimeoutError(
                f"idastar stopped after {time.perf_counter() - started:.1f} s "
                f"(time limit); every solution has at least {bound} moves"
            )

    with _client(client) as c:
        slots = _threads(c)
        while True:
            out_of_time()
            expected = last_pass * growth
            if expected <= rate * local_seconds:
                # Small pass: here, in one piece.
                found, nb, e, g, this, took = _local_pass(text, goal_text, pdbs, bound)
                tasks = 0
                if took > 0.05 and found is None:
                    rate = max(1e5, this / took)
            else:
                want_tasks = min(
                    tasks_per_thread * slots,
                    max(slots, math.ceil(expected / (rate * task_seconds))),
                )
                found, nb, e, g, this, tasks, busy, stopped = _cluster_pass(
                    c, text, goal_text, databases, pdbs, bound, want_tasks, deadline
                )
                if busy > 0 and found is None:
                    rate = max(1e5, this / busy)
                if found is None and stopped:
                    out_of_time()
            expanded += e
            generated += g
            if found is not None:
                return _core._split_solution(
                    text,
                    pdbs,
                    found,
                    expanded,
                    generated,
                    time.perf_counter() - started,
                    goal=goal_text,
                    notation=notation,
                )
            out_of_time()
            if last_pass > 0 and this > 0:
                growth = max(1.5, min(20.0, this / last_pass))
            last_pass = this
            bound = _core._split_bound(text, pdbs, beyond=nb, goal=goal_text)
            report(tasks)

"""npuzzle on a Dask cluster: many boards, label arrays, and one hard board split up.

Install with ``pip install npuzzle[dask]``. Every call takes a ``distributed.Client``;
without one it uses the current client, or starts a ``LocalCluster`` on 127.0.0.1 for the
call (one single-threaded worker process per core) and closes it after.

- :func:`solve_many`: the library's ``solve`` over the cluster, boards grouped into tasks
  of about a second, answers in input order as :class:`npuzzle.Solution` objects.
- :func:`distances` / :func:`estimates`: ``dask.array`` in, ``dask.array`` out (the batch
  calls mapped over blocks), so labels for a billion boards are one expression.
- :func:`solve`: one hard board's IDA* passes split into subtrees searched on the workers;
  the answer is optimal.
- ``python -m npuzzle.dask solve``: the same from the command line, writing the JSON lines
  of ``npuzzle solve --json``.

Pattern databases never travel through the scheduler: a :class:`Databases` names where they
are (a folder every worker can read, as ``npuzzle pdb build`` or
:meth:`npuzzle.PatternDatabases.build` saved them) or asks each worker process to build
them, and each worker process loads them once and keeps them.

Tasks are pure: when a worker dies, Dask runs its tasks again elsewhere and the answers are
the same.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import sys
import threading
import time
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Union,
)

import numpy as np

from . import _core
from ._core import PatternDatabases, Solution

__all__ = [
    "Databases",
    "Failure",
    "distances",
    "estimates",
    "solve",
    "solve_many",
]

def _need_dask() -> None:
    """ImportError with the way out when Dask is missing."""
    try:
        import dask.array  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as e:
        raise ImportError(
            f"npuzzle.dask needs Dask ({e.name} is missing): pip install 'npuzzle[dask]' "
            "(or dask[array,distributed])"
        ) from e


# ---------------------------------------------------------------------------------------
# Databases, loaded once per worker process


@dataclasses.dataclass(frozen=True)
class Databases:
    """Where each worker process gets pattern databases: loaded from ``directory`` (a path
    every worker can read: a shared file system, or the same folder on each machine) or,
    with ``build=True``, built by each worker process (in memory, or saved in
    ``directory`` when given and the files are missing). Small and picklable: this, not the
    databases, is what tasks carry.

    ``load``: "map" (memory-mapped: worker processes on one machine share one copy), "read"
    (a copy per process, fastest to search) or "auto". Without ``directory``, the user's
    database folder (where ``npuzzle pdb build`` saves them).
    """

    directory: Optional[str] = None
    size: str = "4x4"
    partition: str = "7-8"
    goal: Optional[str] = None
    build: bool = False
    load: str = "auto"

    def get(self) -> PatternDatabases:
        """The databases, loaded (or built) the first time this process asks."""
        key = dataclasses.astuple(self)
        with _LOCK:
            dbs = _LOADED.get(key)
            if dbs is None:
                dbs = self._open()
                _LOADED[key] = dbs
            return dbs

    def _open(self) -> PatternDatabases:
        # No directory: the user's database folder, where the CLI saves them.
        directory = None if self.directory is None else os.fspath(self.directory)
        try:
            return PatternDatabases.load(directory, self.size, self.partition, self.goal, self.load)
        except ValueError:
            if not self.build:
                raise
        return PatternDatabases.build(self.size, self.partition, self.goal, directory, threads=1)


_LOADED: Dict[tuple, PatternDatabases] = {}
_LOCK = threading.Lock()


def _pdbs(databases: Optional[Databases]) -> Optional[PatternDatabases]:
    return None if databases is None else databases.get()


# ---------------------------------------------------------------------------------------
# Clients


@contextlib.contextmanager
def _client(client: Any) -> Iterator[Any]:
    """``client``, the current client, or a LocalCluster on 127.0.0.1 for the call."""
    _need_dask()
    if client is not None:
        yield client
        return
    from distributed import Client, LocalCluster, get_client

    try:
        yield get_client()
        return
    except ValueError:
        pass
    with LocalCluster(
        n_workers=os.cpu_count() or 1,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, Client(cluster) as c:
        yield c


def _threads(client: Any) -> int:
    """Worker threads in the cluster (at least 1)."""
    info = client.scheduler_info(n_workers=-1) if _takes_n_workers(client) else client.scheduler_info()
    return max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))


def _takes_n_workers(client: Any) -> bool:
    import inspect

    try:
        return "n_workers" in inspect.signature(client.scheduler_info).parameters
    except (TypeError, ValueError):
        return False


class _Progress:
    """Progress as work comes back: a callable, tqdm (where installed), or nothing."""

    def __init__(self, progress: Any, total: int, what: str) -> None:
        self.fn: Optional[Callable[[int, int], Any]] = None
        self.bar = None
        self.total = total
        if callable(progress):
            self.fn = progress
        elif progress or (progress is None and sys.stderr.isatty()):
            try:
                from tqdm.auto import tqdm

                self.bar = tqdm(total=total, desc=what, unit="board")
            except ImportError:
                if progress:
                    self.fn = lambda done, total: print(
                        f"\r{what}: {done}/{total}", end="", file=sys.stderr, flush=True
                    )

    def update(self, done: int, step: int) -> None:
        if self.bar is not None:
            self.bar.update(step)
        if self.fn is not None:
            self.fn(done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


# ---------------------------------------------------------------------------------------
# Many boards


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
    algorithm, heuristic, weight, time_limit, notation, metric, solutions, threads);
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


# ---------------------------------------------------------------------------------------
# Arrays


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

    from ._core import parse_board

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


# ---------------------------------------------------------------------------------------
# One hard board


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


# ---------------------------------------------------------------------------------------
# The command


def _read_boards(lines: Iterable[Any], size: Optional[str]) -> Iterator[tuple]:
    """(line number, text, board or None, error or None) for each board line (text, or
    bytes as standard input gives them); blank lines and lines starting with # are
    skipped. A line that is not UTF-8 is an error line, its text echoed without the bytes
    that are not, as the CLI does."""
    for n, raw in enumerate(lines, start=1):
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                good = raw[: e.start].decode("utf-8", errors="replace").strip()
                yield n, good, None, (
                    f"expected UTF-8 text, found an invalid byte at column {e.start + 1}"
                )
                continue
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        try:
            tiles, sz = _core.parse_board(line, size)
            yield n, line, _core.format_board(tiles, sz), None
        except ValueError as e:
            msg = str(e)
            yield n, line, None, msg[len("board: ") :] if msg.startswith("board: ") else msg


def _databases_size(lines: list, partition: Optional[str], goal: Optional[str]) -> str:
    """The board size the databases are for, without --size: the first size among the
    boards that the partition fits (a preset names its size; tile lists fit the first)."""
    sizes: List[str] = []
    for _, _, b, _ in lines:
        if b is not None:
            sz = _core.parse_board(b)[1]
            if sz not in sizes:
                sizes.append(sz)
    if not partition:
        return sizes[0] if sizes else "4x4"
    for sz in sizes:
        try:
            # The partition is checked before any file is opened.
            PatternDatabases.load(os.devnull, sz, partition, goal, "map")
        except ValueError as e:
            if str(e).startswith("partition:"):
                continue
        return sz
    return sizes[0] if sizes else "4x4"


def _first_set(directory: Optional[str], size: str, goal: Optional[str], build: bool) -> str:
    """The library's preferred set for ``size`` that loads from ``directory`` (the first one,
    to be built, with ``build`` or where none loads): as the CLI and the server choose."""
    sets = _core.preferred_sets(size)
    for spec in sets:
        try:
            PatternDatabases.load(directory, size, spec, goal, "map")
            return spec
        except ValueError:
            continue
    # Nothing cached: with --build-pdbs the smallest preferred set (the first ones take
    # minutes and gigabytes), else the first, whose error names what is missing.
    return sets[-1] if build else sets[0]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m npuzzle.dask solve``: boards from standard input (one a line), answers
    as the JSON lines of ``npuzzle solve --json`` on standard output, in input order."""
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m npuzzle.dask",
        description="Solve sliding-tile boards on a Dask cluster.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser(
        "solve",
        help="solve the boards on standard input (one a line), writing JSON lines",
        description="Solve the boards on standard input (one a line; blank lines and # "
        "comments skipped) on a Dask cluster, writing the JSON lines of `npuzzle solve "
        "--json` in input order. A bad line is reported on its own line "
        '({"error", "input", "line"}) and the rest are answered (exit status 2). Exit '
        "status 2 also for bad options or databases that cannot be loaded, 3 when "
        "interrupted, 4 when the scheduler cannot be reached.",
        epilog="examples:\n"
        "  npuzzle scramble --size 4x4 -n 1000 | python -m npuzzle.dask solve --workers 8 "
        "--pdb-dir ~/.cache/npuzzle --partition 7-8 > answers.jsonl\n"
        "  python -m npuzzle.dask solve --scheduler tcp://10.0.0.5:8786 --size 5x5 --split "
        "--pdb-dir /shared/pdbs --partition 6-6-6-6 < hard.txt",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("--scheduler", help="a Dask scheduler's address (default: a LocalCluster "
                   "on 127.0.0.1 for this run)")
    s.add_argument("--workers", type=int, default=None,
                   help="worker processes of the LocalCluster (default: one per core)")
    s.add_argument("--size", help="board size WxH (default: from each board)")
    s.add_argument("--goal", help="the goal board (default: tiles in order, blank last)")
    s.add_argument("--pdb-dir", help="a folder every worker can read holding the pattern "
                   "databases (as `npuzzle pdb build` saves them)")
    s.add_argument("--partition", default=None,
                   help="the databases' partition: 7-8, 5-5-5, 6-6-6-6, or '1,2,3/4,5,6'")
    s.add_argument("--build-pdbs", action="store_true",
                   help="have each worker process build the databases it cannot load")
    s.add_argument("--algorithm", default="auto")
    s.add_argument("--heuristic")
    s.add_argument("--weight", type=float)
    s.add_argument("--time-limit", type=float, help="seconds per board")
    s.add_argument("--notation", default="tile", help="tile, blank or tiles")
    s.add_argument("--split", action="store_true",
                   help="solve each board by one IDA* split over the whole cluster "
                   "(for hard boards; needs databases)")
    s.add_argument("--task-seconds", type=float, default=1.0,
                   help="about how long each task should take (default 1; 10 or more on "
                   "clusters of thousands of workers)")
    s.add_argument("--connect-timeout", type=float, default=30.0,
                   help="seconds to wait for the scheduler (default 30)")
    a = p.parse_args(argv)
    for name in ("task_seconds", "connect_timeout", "time_limit"):
        v = getattr(a, name)
        if v is not None and not (v > 0 and math.isfinite(v)):
            p.error(f"--{name.replace('_', '-')}: expected a positive number, found {v}")
    if a.workers is not None and a.workers < 1:
        p.error(f"--workers: expected at least 1, found {a.workers}")

    # Standard output closed before the start (`>&-`): nothing could be written; said
    # as the CLI says it (exit 4). Standard input closed: no boards (exit 2).
    if sys.stdout is None:
        print("npuzzle: cannot write the output: standard output is closed", file=sys.stderr)
        return 4
    if sys.stdin is None:
        print("npuzzle: expected boards on standard input, found it closed", file=sys.stderr)
        return 2
    try:
        _need_dask()
        return _command(p, a)
    except BrokenPipeError:
        # A reader that stopped early (`| head -1`) is not an error, as for the CLI; the
        # output left unwritten goes nowhere (no second error at exit).
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except ImportError as e:
        print(f"npuzzle: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("npuzzle: interrupted", file=sys.stderr)
        return 3
    except ValueError as e:
        print(f"npuzzle: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"npuzzle: {e}", file=sys.stderr)
        return 4


def _command(p: Any, a: Any) -> int:
    import json

    lines = list(_read_boards(getattr(sys.stdin, "buffer", sys.stdin), a.size))
    if not lines:
        print("npuzzle: expected a board on standard input, found none", file=sys.stderr)
        return 2
    databases = None
    if a.pdb_dir or a.build_pdbs:
        size = a.size or _databases_size(lines, a.partition, a.goal)
        # Boards of another size get an error line, as `npuzzle solve --pdb` gives them.
        for i, (n, line, b, err) in enumerate(lines):
            if b is not None and _core.parse_board(b)[1] != size:
                lines[i] = (n, line, None, f"--partition: the databases are for {size}, "
                            f"not {_core.parse_board(b)[1]}")
        databases = Databases(
            directory=a.pdb_dir,
            size=size,
            partition=a.partition or _first_set(a.pdb_dir, size, a.goal, a.build_pdbs),
            goal=a.goal,
            build=a.build_pdbs,
        )
    if a.split and databases is None:
        p.error("--split needs databases: --pdb-dir DIR (and --partition) or --build-pdbs")
    cluster_cm: Any
    cluster = None
    if a.scheduler:
        from distributed import Client

        try:
            cluster_cm = Client(a.scheduler, timeout=a.connect_timeout)
        except (OSError, TimeoutError) as e:
            raise OSError(f"cannot reach the scheduler at {a.scheduler}: {e}") from None
    else:
        from distributed import Client, LocalCluster

        cluster = LocalCluster(
            n_workers=a.workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        cluster_cm = Client(cluster)
    status = 0
    out = sys.stdout
    with cluster_cm as client:
        good = [(n, line, b) for n, line, b, _ in lines if b is not None]
        answers: Dict[int, Any] = {}
        if a.split:
            for n, line, b in good:
                try:
                    answers[n] = solve(b, client, databases=databases, goal=a.goal,
                                       size=a.size, notation=a.notation,
                                       task_seconds=a.task_seconds, time_limit=a.time_limit)
                except (ValueError, TimeoutError) as e:
                    answers[n] = Failure(n, line, str(e))
        else:
            options: Dict[str, Any] = {"algorithm": a.algorithm, "notation": a.notation}
            for k in ("goal", "heuristic", "weight", "time_limit"):
                if getattr(a, k) is not None:
                    options[k] = getattr(a, k)
            got = solve_many([b for _, _, b in good], a.size, client, databases=databases,
                             task_seconds=a.task_seconds, progress=None, **options)
            for (n, line, _), ans in zip(good, got):
                answers[n] = Failure(n, line, ans.error) if isinstance(ans, Failure) else ans
        for n, line, b, err in lines:
            ans = answers.get(n) if b is not None else Failure(n, line, err or "")
            if isinstance(ans, Failure):
                status = 2
                print(f"npuzzle: line {n}: {ans.error}", file=sys.stderr)
                out.write(json.dumps({"error": ans.error, "input": line, "line": n},
                                     separators=(",", ":"), ensure_ascii=False) + "\n")
            else:
                out.write(ans.to_json() + "\n")
    if cluster is not None:
        cluster.close()
    out.flush()
    return status


if __name__ == "__main__":
    # Run from the imported module, so that what the tasks name (`npuzzle.dask._...`)
    # is what workers import.
    from npuzzle.dask import main as _main

    sys.exit(_main())

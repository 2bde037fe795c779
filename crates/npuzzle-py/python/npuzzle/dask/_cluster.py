"""Where the work runs: the cluster's client, its worker threads, the databases each
worker process loads once, and progress as work comes back."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
import threading
from typing import Any, Callable, Dict, Iterator, Optional

from .._core import PatternDatabases


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

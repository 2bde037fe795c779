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

from ._arrays import distances, estimates
from ._cluster import Databases
from ._many import Failure, solve_many
from ._split import solve

__all__ = [
    "Databases",
    "Failure",
    "distances",
    "estimates",
    "solve",
    "solve_many",
]

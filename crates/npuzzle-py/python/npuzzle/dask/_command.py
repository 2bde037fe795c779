"""``python -m npuzzle.dask solve``: boards from standard input, JSON lines out."""

from __future__ import annotations

import math
import os
import sys
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence

from .. import _core
from .._core import PatternDatabases
from ._cluster import Databases, _need_dask
from ._many import Failure, solve_many
from ._split import solve


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

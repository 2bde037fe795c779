"""npuzzle on a Dask cluster: a LocalCluster of two single-threaded worker processes on
127.0.0.1 (nothing else is bound or sent to). The cluster's answers must be the ones this
process gives, with a worker killed in the middle too; the split solve's lengths must be
the optimum; the command's output must be `npuzzle solve --json`'s."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

import npuzzle

distributed = pytest.importorskip("distributed", reason="dask[distributed] is in the test environment")
da = pytest.importorskip("dask.array")

import npuzzle.dask as nd  # noqa: E402

from test_npuzzle import BIN, bfs_3x3, cli  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster, distributed.Client(cluster) as c:
        # Every worker listens on the loopback address alone.
        for addr in c.scheduler_info()["workers"]:
            assert addr.startswith("tcp://127.0.0.1:"), addr
        yield c


@pytest.fixture(scope="module")
def pdb_dir(tmp_path_factory):
    """5-5-5 databases for 4x4 (the usual goal and Korf's), 4-tile groups for 5x5, built
    once in a folder of the test's own."""
    d = tmp_path_factory.mktemp("pdb")
    npuzzle.PatternDatabases.build("4x4", "5-5-5", directory=d)
    npuzzle.PatternDatabases.build("4x4", "5-5-5", goal=KORF_GOAL, directory=d)
    npuzzle.PatternDatabases.build("5x5", FIVE, directory=d)
    return d


KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
# Six groups of four tiles on 5x5: small enough to build in a second.
FIVE = "1,2,6,7/3,4,5,8/9,10,14,15/11,12,16,17/13,18,19,20/21,22,23,24"


def same(a: npuzzle.Solution, b: npuzzle.Solution) -> None:
    """The same answer, but for the time it took."""
    x, y = json.loads(a.to_json()), json.loads(b.to_json())
    x.pop("seconds")
    y.pop("seconds")
    assert x == y


def walks(size: str, moves: int, count: int, seed: int) -> list[str]:
    return [npuzzle.scramble(size, seed=seed + i, moves=moves) for i in range(count)]


def test_solve_many_answers_as_one_process_does_on_3x3(client):
    boards = [npuzzle.scramble("3x3", seed=i) for i in range(300)]
    got = nd.solve_many(boards, client=client, progress=False)
    assert len(got) == len(boards)
    dist = bfs_3x3()
    for b, s in zip(boards, got):
        same(s, npuzzle.solve(b))
        tiles, _ = npuzzle.parse_board(b)
        assert s.length == dist[tuple(tiles)]
    # Rows of an array, with a size.
    arr = npuzzle.scrambles("3x3", 50, seed=3)
    got = nd.solve_many(arr, "3x3", client=client, progress=False, algorithm="idastar")
    for row, s in zip(arr, got):
        same(s, npuzzle.solve(list(row), size="3x3", algorithm="idastar"))


def test_solve_many_answers_as_one_process_does_on_4x4(client, pdb_dir):
    dbs = nd.Databases(str(pdb_dir), "4x4", "5-5-5")
    boards = walks("4x4", 200, 40, 100)
    seen = []
    got = nd.solve_many(boards, client=client, databases=dbs, progress=lambda d, t: seen.append((d, t)))
    pdbs = dbs.get()
    for b, s in zip(boards, got):
        same(s, npuzzle.solve(b, pdbs=pdbs, threads=1))
        assert s.heuristic == "pdb 5-5-5 + reflection"
    assert seen[-1] == (40, 40) and all(t == 40 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_bad_board_is_reported_in_its_place(client):
    boards = ["8 1 3/4 0 2/7 6 5", "1 2 3 5", "1 2 3/4 5 6/8 7 0", "not a board"]
    got = nd.solve_many(boards, client=client, progress=False)
    assert got[0].length == 14
    assert isinstance(got[1], nd.Failure) and got[1].index == 1 and got[1].board == "1 2 3 5"
    assert "found 5" in got[1].error
    assert got[2].solvable is False
    assert isinstance(got[3], nd.Failure) and got[3].index == 3
    with pytest.raises(ValueError, match="board 1"):
        nd.solve_many(boards, client=client, progress=False, errors="raise")
    with pytest.raises(TypeError, match="unexpected options"):
        nd.solve_many(boards, client=client, colour="red")
    assert nd.solve_many([], client=client) == []


def test_a_worker_killed_in_the_middle_changes_nothing(client, pdb_dir):
    dbs = nd.Databases(str(pdb_dir), "4x4", "5-5-5")
    boards = walks("4x4", 300, 60, 500)
    pdbs = dbs.get()
    expected = [npuzzle.solve(b, pdbs=pdbs, threads=1) for b in boards]
    pids = client.run(os.getpid)
    killed = []

    def progress(done, total):
        # After the first answers come back, one worker process dies at once (SIGKILL:
        # no goodbye to the scheduler); its nanny starts a new one.
        if not killed and done < total:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    got = nd.solve_many(boards, client=client, databases=dbs, progress=progress, task_seconds=0.05)
    assert killed, "a worker was killed during the run"
    for e, s in zip(expected, got):
        same(s, e)
    client.wait_for_workers(2, timeout=60)
    assert killed[0] not in client.run(os.getpid).values()


def test_arrays_of_labels(client, pdb_dir):
    boards = npuzzle.scrambles("3x3", 2000, seed=9)
    arr = da.from_array(boards, chunks=(300, 9))
    d = nd.distances(arr, "3x3")
    assert isinstance(d, da.Array) and d.dtype == np.int32 and d.shape == (2000,)
    assert np.array_equal(d.compute(), npuzzle.distances(boards, "3x3"))
    for h in ("manhattan", "linear-conflict", "misplaced"):
        e = nd.estimates(arr, "3x3", h).compute()
        assert np.array_equal(e, npuzzle.estimates(boards, "3x3", h))
    # Columns split in chunks too, and a plain array.
    split = da.from_array(boards, chunks=(500, 4))
    assert np.array_equal(nd.distances(split, "3x3").compute(), npuzzle.distances(boards, "3x3"))
    assert np.array_equal(nd.distances(boards[:10], "3x3").compute(), npuzzle.distances(boards[:10], "3x3"))
    # Databases on the workers.
    dbs = nd.Databases(str(pdb_dir), "4x4", "5-5-5")
    four = npuzzle.scrambles("4x4", 400, seed=2)
    e = nd.estimates(da.from_array(four, chunks=(100, 16)), "4x4", "pdb", databases=dbs).compute()
    assert np.array_equal(e, npuzzle.estimates(four, "4x4", "pdb", pdbs=dbs.get()))
    with pytest.raises(ValueError, match="expected an"):
        nd.distances(da.from_array(boards), "4x4")


def test_one_board_split_over_the_cluster_is_optimal(client, pdb_dir):
    # 4x4: walks and Korf's first instance (57 moves); every pass but the first goes out.
    dbs = nd.Databases(str(pdb_dir), "4x4", "5-5-5")
    for b in walks("4x4", 120, 6, 40):
        passes = []
        s = nd.solve(b, client, databases=dbs, local_seconds=0, progress=passes.append)
        one = npuzzle.solve(b, algorithm="idastar", pdbs=dbs.get(), threads=1)
        assert s.length == one.length and s.optimal and npuzzle.verify(b, s.moves)
        assert s.algorithm == "idastar" and s.heuristic == one.heuristic
        assert [p["bound"] for p in passes] == sorted(p["bound"] for p in passes)
        assert all(p["bound"] <= s.length for p in passes)
    korf = nd.Databases(str(pdb_dir), "4x4", "5-5-5", goal=KORF_GOAL)
    korf1 = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"
    passes = []
    s = nd.solve(korf1, client, databases=korf, goal=KORF_GOAL, local_seconds=0, progress=passes.append)
    assert s.length == 57 and npuzzle.verify(korf1, s.moves, goal=KORF_GOAL)
    assert any(p["tasks"] > 0 for p in passes), passes
    # The passes before the last do the one-process search's work exactly; the last
    # stops at the first solution any worker finds.
    one = npuzzle.solve(korf1, goal=KORF_GOAL, algorithm="idastar", pdbs=korf.get(), threads=1)
    assert s.expanded > 0 and s.generated >= s.expanded
    # A worker killed during the split solve: its tasks run again, the answer stands.
    pids = client.run(os.getpid)
    killed = []

    def kill_once(p):
        if p["tasks"] > 0 and not killed:
            victim = sorted(pids.values())[-1]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    s = nd.solve(korf1, client, databases=korf, goal=KORF_GOAL, local_seconds=0, progress=kill_once)
    assert killed and s.length == 57 and npuzzle.verify(korf1, s.moves, goal=KORF_GOAL)
    client.wait_for_workers(2, timeout=60)
    # 5x5: boards a few dozen moves from the goal, against IDA* with linear conflict.
    five = nd.Databases(str(pdb_dir), "5x5", FIVE)
    for b in walks("5x5", 60, 3, 7):
        s = nd.solve(b, client, databases=five, local_seconds=0)
        one = npuzzle.solve(b, algorithm="idastar", heuristic="linear-conflict")
        assert s.length == one.length and npuzzle.verify(b, s.moves)
    # Already solved, and unsolvable.
    assert nd.solve("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", client, databases=dbs).length == 0
    bad = nd.solve("2 1 3 4/5 6 7 8/9 10 11 12/13 14 15 0", client, databases=dbs)
    assert bad.solvable is False
    with pytest.raises(ValueError, match="databases"):
        nd.solve("8 1 3/4 0 2/7 6 5", client, databases=dbs)
    # Limits at their extremes are refused with the keyword named.
    for bad in ({"tasks_per_thread": 0}, {"task_seconds": 0}, {"local_seconds": -1},
                {"time_limit": 0}, {"task_seconds": float("nan")}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            nd.solve(korf1, client, databases=korf, goal=KORF_GOAL, **bad)
    # The fewest tasks (one a worker thread) and the shortest ones still answer.
    s = nd.solve(korf1, client, databases=korf, goal=KORF_GOAL, local_seconds=0,
                 task_seconds=1e-9, tasks_per_thread=1)
    assert s.length == 57


def test_a_missing_database_is_named(client, tmp_path):
    dbs = nd.Databases(str(tmp_path), "4x4", "5-5-5")
    got = None
    with pytest.raises(ValueError, match=str(tmp_path)):
        got = nd.solve_many(["1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"], client=client, databases=dbs)
    assert got is None


def command(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "npuzzle.dask", "solve", "--workers", "2", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def lines_without_seconds(text: str) -> list[dict]:
    out = []
    for line in text.splitlines():
        d = json.loads(line)
        d.pop("seconds", None)
        out.append(d)
    return out


def test_the_command_writes_what_the_cli_writes(pdb_dir):
    three = "\n".join(npuzzle.scramble("3x3", seed=i) for i in range(20))
    stdin = three + "\n1 2 3 5\n\n# a comment\n1 2 3/4 5 6/8 7 0\n"
    ours = command(stdin=stdin)
    theirs = cli("solve", "--json", "--threads", "1", stdin=stdin)
    assert ours.returncode == theirs.returncode == 2, (ours.stderr, theirs.stderr)
    assert lines_without_seconds(ours.stdout) == lines_without_seconds(theirs.stdout)
    assert "line 21" in ours.stderr
    four = "\n".join(walks("4x4", 200, 12, 900)) + "\n"
    ours = command("--pdb-dir", str(pdb_dir), "--partition", "5-5-5", stdin=four)
    theirs = cli(
        "solve", "--json", "--threads", "1", "--pdb", "5-5-5", "--pdb-dir", str(pdb_dir), stdin=four
    )
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    assert lines_without_seconds(ours.stdout) == lines_without_seconds(theirs.stdout)
    # Split: the same lengths, proven optimal.
    split = command("--pdb-dir", str(pdb_dir), "--partition", "5-5-5", "--split", stdin=four)
    assert split.returncode == 0, split.stderr
    for a, b in zip(lines_without_seconds(split.stdout), lines_without_seconds(theirs.stdout)):
        assert a["length"] == b["length"] and a["optimal"] is True
    # --split without databases is refused with a reason.
    bad = command("--split", stdin=four)
    assert bad.returncode == 2 and "needs databases" in bad.stderr
    # Boards of another size than the databases get an error line each, like the CLI's.
    mixed = "8 1 3/4 0 2/7 6 5\n" + four
    ours = command("--pdb-dir", str(pdb_dir), "--partition", "5-5-5", stdin=mixed)
    assert ours.returncode == 2
    first, *rest = lines_without_seconds(ours.stdout)
    assert first["line"] == 1 and "4x4, not 3x3" in first["error"]
    assert [r["length"] for r in rest] == [b["length"] for b in lines_without_seconds(theirs.stdout)]
    # A scheduler that is not there: said at once, exit 4.
    gone = command("--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1", stdin=four)
    assert gone.returncode == 4 and "cannot reach the scheduler at tcp://127.0.0.1:9" in gone.stderr
    assert "Traceback" not in gone.stderr
    # Missing databases: named, exit 2; bad options refused by the parser.
    missing = command("--pdb-dir", str(pdb_dir / "none"), "--partition", "5-5-5", stdin=four)
    assert missing.returncode == 2 and "none" in missing.stderr
    neg = command("--task-seconds", "-1", stdin=four)
    assert neg.returncode == 2 and "--task-seconds" in neg.stderr


def test_without_dask_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r"pip install 'npuzzle\[dask\]'"):
        nd.solve_many(["8 1 3/4 0 2/7 6 5"])
    with pytest.raises(ImportError, match="distributed is missing"):
        nd.distances(np.zeros((1, 9), dtype=np.uint8), "3x3")


def test_the_command_ends_as_the_cli_does_at_the_edges():
    """Empty input, a reader that stops early, a closed standard output and bytes that are
    not UTF-8: the exit status and the words the CLI gives, never a traceback."""
    empty = command(stdin="")
    theirs = cli("solve", "--json", stdin="")
    assert empty.returncode == theirs.returncode == 2, (empty.stderr, theirs.stderr)
    assert "found none" in empty.stderr and "Traceback" not in empty.stderr
    # Standard output closed before the start (`>&-`): exit 4, said in one line.
    closed = subprocess.run(
        ["sh", "-c", f'exec "{sys.executable}" -m npuzzle.dask solve --workers 1 >&-'],
        input="8 1 3/4 0 2/7 6 5\n", capture_output=True, text=True, timeout=600, check=False,
    )
    assert closed.returncode == 4, closed.stderr
    assert "standard output is closed" in closed.stderr and "Traceback" not in closed.stderr
    # A line of bytes that are not UTF-8 among good ones: its error line, in UTF-8, as the
    # CLI writes it; the rest answered.
    raw = b"8 1 3/4 0 2/7 6 5\n\xff\xfe 1 2\n1 2 3/4 5 6/7 0 8\n"
    ours = subprocess.run(
        [sys.executable, "-m", "npuzzle.dask", "solve", "--workers", "1"],
        input=raw, capture_output=True, timeout=600, check=False,
    )
    theirs = subprocess.run([BIN, "solve", "--json", "--threads", "1"], input=raw,
                            capture_output=True, timeout=600, check=False)
    assert ours.returncode == theirs.returncode == 2, ours.stderr
    assert lines_without_seconds(ours.stdout.decode()) == lines_without_seconds(theirs.stdout.decode())
    # A reader that stops after the first line: exit 0, as for the CLI.
    many = "\n".join(npuzzle.scramble("3x3", seed=i) for i in range(2000)) + "\n"
    status = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m npuzzle.dask solve --workers 1 | head -1 >/dev/null; '
         'echo "${PIPESTATUS[0]}"'],
        input=many, capture_output=True, text=True, timeout=600, check=False,
    )
    assert status.stdout.strip() == "0", status.stderr
    assert "Traceback" not in status.stderr and "BrokenPipe" not in status.stderr, status.stderr

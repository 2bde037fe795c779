"""The Python package against the CLI's answers on the same boards, a BFS written here,
and Gymnasium's environment checker."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from collections import deque

import numpy as np
import pytest

import npuzzle

BIN = os.environ.get("NPUZZLE_BIN") or shutil.which("npuzzle")


def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    if not BIN:
        pytest.fail("set NPUZZLE_BIN to the npuzzle binary (crates/npuzzle-py/test.sh does)")
    return subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, check=False)


def bfs_3x3() -> dict[tuple[int, ...], int]:
    """Distances to the 3x3 goal of every reachable board."""
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        b = queue.popleft()
        z = b.index(0)
        r, c = divmod(z, 3)
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < 3 and 0 <= nc < 3:
                n = nr * 3 + nc
                x = list(b)
                x[z], x[n] = x[n], x[z]
                t = tuple(x)
                if t not in dist:
                    dist[t] = dist[b] + 1
                    queue.append(t)
    return dist


@pytest.fixture(scope="module")
def oracle() -> dict[tuple[int, ...], int]:
    return bfs_3x3()


def text(row) -> str:
    return npuzzle.format_board([int(t) for t in row])


def test_solve_matches_the_cli():
    boards = [text(r) for r in npuzzle.scrambles("3x3", 12, seed=5)]
    boards += [npuzzle.scramble("4x3", seed=s) for s in range(3)]
    out = cli("solve", "--json", *boards)
    assert out.returncode == 0, out.stderr
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    for b, want in zip(boards, answers):
        got = npuzzle.solve(b)
        assert got.length == want["length"], b
        assert got.optimal and want["optimal"]
        assert npuzzle.verify(b, got.moves)
        # The same fields as the CLI's JSON.
        assert set(json.loads(got.to_json())) == set(want)
    for notation in ("tile", "blank", "tiles"):
        s = npuzzle.solve(boards[0], algorithm="astar", heuristic="manhattan", notation=notation)
        assert npuzzle.verify(boards[0], s.moves, notation=notation)
    unsolvable = npuzzle.solve("2 1 3/4 5 6/7 8 0")
    assert not unsolvable.solvable and unsolvable.moves is None


def test_anytime_and_weighted_answers():
    b = npuzzle.scramble("5x5", seed=3)
    # No databases given: the exact search has half the time, beams the rest.
    s = npuzzle.solve(b, time_limit=0.2)
    assert s.optimal is False and s.algorithm == "anytime"
    assert 0 < s.lower_bound <= s.length and npuzzle.verify(b, s.moves)
    with pytest.raises(TimeoutError, match="stopped"):
        npuzzle.solve(b, algorithm="idastar", time_limit=0.05)
    w = npuzzle.solve(npuzzle.scramble("4x4", seed=2), weight=1.5)
    assert w.weight == 1.5 and w.optimal is False and w.lower_bound * 1.5 >= w.length


def test_beams_at_one_width_answer_alike_every_time():
    b = npuzzle.scramble("6x7", seed=5)
    s, t = (npuzzle.solve(b, beam_width=24) for _ in range(2))
    assert s.moves == t.moves and s.algorithm == "anytime" and s.optimal is False
    assert s.lower_bound <= s.length and npuzzle.verify(b, s.moves)
    with pytest.raises(ValueError, match="beam_width: expected a board of 26 cells or more"):
        npuzzle.solve(npuzzle.scramble("5x5", seed=5), beam_width=24)
    with pytest.raises(ValueError, match="expected a beam width from 1 to 1048576, found 0"):
        npuzzle.solve(b, beam_width=0)


def test_the_anytime_solver_takes_6x6_databases_for_its_last_region():
    # Small databases for the usual 6x6 goal (the default set takes minutes to build):
    # given with a 7x7 board, they rank the anytime solver's last 6x6 region, any goal.
    groups = "/".join(",".join(str(t) for t in range(k, min(k + 3, 36))) for k in range(1, 36, 3))
    region = npuzzle.PatternDatabases.build("6x6", groups)
    for goal in (None, npuzzle.scramble("7x7", seed=9)):
        b = npuzzle.scramble("7x7", seed=4)
        s = npuzzle.solve(b, goal=goal, time_limit=0.4, pdbs=region)
        assert s.algorithm == "anytime" and s.heuristic == "pattern-database beam"
        assert npuzzle.verify(b, s.moves, goal=goal)
        plain = npuzzle.solve(b, goal=goal, time_limit=0.4)
        assert plain.heuristic == "linear-conflict beam"
    # On a 6x6 board of their own goal they are the board's: an exact search with them for
    # a tenth of the time, then beams ranked by them (at a beam width, the beams alone), never
    # the fast solver.
    b6 = npuzzle.scramble("6x6", seed=4)
    for opts in ({"time_limit": 0.6}, {"beam_width": 32}):
        s = npuzzle.solve(b6, pdbs=region, **opts)
        assert (s.algorithm, s.heuristic) == ("anytime", "pattern-database beam"), opts
        assert npuzzle.verify(b6, s.moves) and s.lower_bound <= s.length
    # Databases of another goal on a board they cannot serve are refused, naming both.
    with pytest.raises(ValueError, match="databases are for goal"):
        npuzzle.solve(npuzzle.scramble("5x5", seed=1), pdbs=region)


def test_scrambles_match_the_cli():
    for size, seed in (("3x3", 1), ("4x4", 2), ("5x2", 3)):
        out = cli("scramble", "--size", size, "-n", "5", "--seed", str(seed))
        rows = out.stdout.split("\n")[:5]
        arr = npuzzle.scrambles(size, 5, seed=seed)
        assert [text(r) if size != "5x2" else npuzzle.format_board([int(t) for t in r], size=size) for r in arr] == rows
        assert npuzzle.scramble(size, seed=seed) == rows[0]
    walk = cli("scramble", "--size", "4x4", "--seed", "4", "--moves", "30").stdout.strip()
    assert npuzzle.scramble("4x4", seed=4, moves=30) == walk
    assert npuzzle.scrambles("4x4", 3, seed=4, walk=30)[0].tolist() == npuzzle.parse_board(walk)[0]
    assert npuzzle.solvable(npuzzle.scrambles("4x4", 1000, seed=8), "4x4").all()


def test_solvable_apply_and_notations_match_the_cli():
    boards = ["8 1 3/4 0 2/7 6 5", "2 1 3/4 5 6/7 8 0", "1 2 3/4 5 6/0 7 8"]
    out = cli("solvable", *boards).stdout.splitlines()
    for b, line in zip(boards, out):
        assert npuzzle.is_solvable(b) == line.endswith(": solvable"), line
    arr = np.array([npuzzle.parse_board(b)[0] for b in boards])
    assert npuzzle.solvable(arr, "3x3").tolist() == [npuzzle.is_solvable(b) for b in boards]
    got = npuzzle.apply("8 1 3/4 0 2/7 6 5", "LUR2")
    want = cli("apply", "8 1 3/4 0 2/7 6 5", "LUR2").stdout.strip()
    assert want.endswith(got) or got in want, (got, want)
    for to in ("blank", "tiles"):
        want = cli("moves", "convert", "--to", to, "--board", "8 1 3/4 0 2/7 6 5", "LUR2D2").stdout.strip()
        assert npuzzle.convert_moves("LUR2D2", "8 1 3/4 0 2/7 6 5", to) == want


def test_batch_distances_on_every_3x3_position(oracle):
    boards = np.array(list(oracle.keys()), dtype=np.uint8)
    assert len(boards) == 181440
    want = np.array(list(oracle.values()), dtype=np.int32)
    got = npuzzle.distances(boards, "3x3")
    assert (got == want).all()
    # Every estimate is a lower bound, and linear conflict is at least Manhattan.
    m = npuzzle.estimates(boards, "3x3", "manhattan")
    lc = npuzzle.estimates(boards, "3x3", "linear-conflict")
    wd = npuzzle.estimates(boards, "3x3", "walking-distance")
    assert (m <= want).all() and (lc <= want).all() and (wd <= want).all() and (lc >= m).all()
    # Unsolvable boards: -1.
    odd = boards[:10].copy()
    odd[:, [0, 1]] = odd[:, [1, 0]]
    odd = odd[(odd[:, 0] != 0) & (odd[:, 1] != 0)]
    assert (npuzzle.distances(odd, "3x3") == -1).all()
    # Any integer dtype and a list of lists are taken.
    assert npuzzle.distances(boards[:5].astype(np.int64).tolist(), "3x3").tolist() == want[:5].tolist()


def test_pattern_databases_built_saved_loaded_and_searched(tmp_path, oracle):
    pdbs = npuzzle.PatternDatabases.build("4x4", "5-5-5", directory=tmp_path)
    # Three databases, each with the stamp that spares it the consistency pass.
    assert len(list(tmp_path.glob("*.npz"))) == 3
    assert len(list(tmp_path.glob("*.npz.checked"))) == 3
    again = npuzzle.PatternDatabases.load(tmp_path, "4x4", "5-5-5")
    # A leading ~ is the home folder, as the README's examples write it; "map" and "read"
    # load the same entries.
    home = os.environ.get("HOME")
    try:
        os.environ["HOME"] = str(tmp_path.parent)
        tilde = npuzzle.PatternDatabases.load(f"~/{tmp_path.name}", "4x4", "5-5-5", load="map")
    finally:
        if home is None:
            del os.environ["HOME"]
        else:
            os.environ["HOME"] = home
    read = npuzzle.PatternDatabases.load(tmp_path, "4x4", "5-5-5", load="read")
    with pytest.raises(ValueError, match="load: "):
        npuzzle.PatternDatabases.load(tmp_path, "4x4", "5-5-5", load="copy")
    boards = npuzzle.scrambles("4x4", 12, seed=21)
    assert all(tilde.estimate(b) == read.estimate(b) == again.estimate(b) for b in boards)
    est = npuzzle.estimates(boards, "4x4", "pdb", pdbs=pdbs)
    assert (est == npuzzle.estimates(boards, "4x4", "pdb", pdbs=again)).all()
    assert est[0] == again.estimate(boards[0])
    dist = npuzzle.distances(boards, "4x4", pdbs=pdbs)
    # The CLI, with the same databases, gives the same optimal lengths.
    out = cli("solve", "--json", "--pdb", "5-5-5", "--pdb-dir", str(tmp_path), *[text(r) for r in boards])
    assert out.returncode == 0, out.stderr
    assert dist.tolist() == [json.loads(line)["length"] for line in out.stdout.splitlines()]
    assert (est <= dist).all()
    # On 3x3, database search agrees with the BFS.
    small = npuzzle.PatternDatabases.build("3x3", "1,2,3,4/5,6,7,8")
    b3 = np.array(list(itertools.islice(oracle.keys(), 0, 181440, 997)), dtype=np.uint8)
    assert npuzzle.distances(b3, "3x3", pdbs=small).tolist() == [oracle[tuple(r)] for r in b3.tolist()]
    with pytest.raises(ValueError, match="No such file|not found|cannot"):
        npuzzle.PatternDatabases.load(tmp_path / "none", "4x4", "7-8")
    # A file forged and sealed again (entries raised, checksum made to match) is refused
    # by its contents, with the file named.
    first = sorted(tmp_path.glob("*.npz"))[0]
    data = bytearray(first.read_bytes())
    body = len(data) - 8
    entries = data[body - 524160 : body]
    data[body - 524160 : body] = bytes(v + 3 if v >= 10 else v for v in entries)
    data[body:] = checksum(bytes(data[:body])).to_bytes(8, "little")
    first.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="forged or corrupt"):
        npuzzle.PatternDatabases.load(tmp_path, "4x4", "5-5-5")


def checksum(data: bytes) -> int:
    """npuzzle's file checksum (FNV-1a over 8-byte words, then a mix), for forging."""
    mask = (1 << 64) - 1
    h = (0xCBF29CE484222325 ^ len(data)) & mask
    words = len(data) // 8
    for i in range(words):
        h = ((h ^ int.from_bytes(data[8 * i : 8 * i + 8], "little")) * 0x100000001B3) & mask
        h ^= h >> 29
    for b in data[8 * words :]:
        h = ((h ^ b) * 0x100000001B3) & mask
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & mask
    return h ^ (h >> 33)


def test_bad_input_raises_value_error_with_the_librarys_message():
    out = cli("solve", "1 2 3/4 5 6/7 8 9")
    msg = out.stderr.strip().split(": ", 2)[-1]
    with pytest.raises(ValueError) as e:
        npuzzle.solve("1 2 3/4 5 6/7 8 9")
    assert msg in str(e.value), (msg, str(e.value))
    for call, says in [
        (lambda: npuzzle.solve("1 2 3/4 5 6/7 8 0", algorithm="dfs"), "algorithm: expected"),
        (lambda: npuzzle.solve([1, 2, 3, 0, 4]), "make no square"),
        (lambda: npuzzle.apply("1 2 3/4 5 6/7 8 0", "UUU"), "moves:"),
        (lambda: npuzzle.distances(np.zeros((2, 9)), "3x3"), "integer tiles"),
        (lambda: npuzzle.distances(np.zeros((2, 8), dtype=np.uint8), "3x3"), "expected 9 columns"),
        (lambda: npuzzle.distances(np.array([[1, 2, 3, 4, 5, 6, 7, 8, 8]]), "3x3"), "boards row 0"),
        (lambda: npuzzle.estimates(np.zeros((1, 9), dtype=np.uint8), "3x3", "pdb"), "needs pdbs"),
        (lambda: npuzzle.scrambles("1x1", 2), "size:"),
        (lambda: npuzzle.solve("1 2 3/4 5 6/7 8 0", weight=0.5), "weight: expected from 1 to 100"),
    ]:
        with pytest.raises(ValueError, match=says):
            call()


def test_the_environment_passes_gymnasiums_checker():
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    for size in ("3x3", "4x4", "3x2"):
        env = gym.make("npuzzle/SlidingPuzzle-v0", size=size, render_mode="ansi")
        check_env(env.unwrapped)
    env = gym.make("npuzzle/SlidingPuzzle-v0", size="3x3", optimal_info=True)
    obs, info = env.reset(seed=11)
    board = npuzzle.format_board([int(t) for t in obs])
    sol = npuzzle.solve(board, notation="tile")
    assert info["optimal_distance"] == sol.length
    # Playing the optimal solution ends the episode with -length.
    actions = {"U": 0, "D": 1, "L": 2, "R": 3}
    total, terminated = 0.0, False
    moves = npuzzle.convert_moves(sol.moves, board, "blank")
    for m in moves:
        # Blank notation names the blank's way; the tile goes the other way.
        a = actions[{"u": "D", "d": "U", "l": "R", "r": "L"}[m]]
        obs, r, terminated, truncated, info = env.step(a)
        total += r
    assert terminated and total == -sol.length and info["optimal_distance"] == 0
    # A walk scramble of k moves is at most k from the goal.
    env = gym.make("npuzzle/SlidingPuzzle-v0", size="4x4", walk=6, optimal_info=False)
    obs, _ = env.reset(seed=1)
    assert 0 < npuzzle.solve(npuzzle.format_board([int(t) for t in obs])).length <= 6


def test_the_environment_calls_only_proven_lengths_optimal():
    import gymnasium as gym

    # A uniform 6x6 board: no search proves its length, so none is called optimal.
    env = gym.make("npuzzle/SlidingPuzzle-v0", size="6x6", optimal_info=True)
    _, info = env.reset(seed=3)
    assert "optimal_distance" not in info, info
    low, length = info["distance_bounds"]
    assert 0 < low <= length
    # On 3x3 every length is proven.
    env = gym.make("npuzzle/SlidingPuzzle-v0", size="3x3", optimal_info=True)
    _, info = env.reset(seed=3)
    assert "distance_bounds" not in info and info["optimal_distance"] >= 0


def test_the_environment_refuses_what_would_break_an_episode():
    import gymnasium as gym

    import npuzzle.env

    env = gym.make("npuzzle/SlidingPuzzle-v0", size="3x3")
    env.reset(seed=1)
    # A start board that can never reach the goal: its episode could never end.
    with pytest.raises(ValueError, match="cannot"):
        env.reset(seed=1, options={"board": "2 1 3/4 5 6/7 8 0"})
    # Actions are whole numbers: a float or a string is not rounded or read.
    for bad in (1.7, "1", True, 1.0, None):
        with pytest.raises(ValueError, match="action: expected an integer 0 to 3"):
            env.step(bad)
    env.step(np.int64(1))
    env.step(np.array(2))
    vec = npuzzle.env.SlidingPuzzleVectorEnv(num_envs=2, size="3x3")
    vec.reset(seed=1)
    for bad in ([1.7, 0.0], ["1", "0"], [True, False]):
        with pytest.raises(ValueError, match="actions: expected integers 0 to 3"):
            vec.step(bad)
    vec.step([1, 0])


def test_the_vector_environment_steps_like_single_ones():
    import gymnasium as gym

    vec = gym.make_vec("npuzzle/SlidingPuzzle-v0", num_envs=64, size="3x3", walk=3,
                       vectorization_mode="vector_entry_point")
    obs, _ = vec.reset(seed=4)
    assert obs.shape == (64, 9) and obs.dtype == np.uint8
    rng = np.random.default_rng(0)
    done_seen = 0
    for _ in range(200):
        actions = rng.integers(0, 4, size=64)
        before = obs.copy()
        obs, rew, term, trunc, _ = vec.step(actions)
        assert obs.shape == (64, 9) and rew.dtype == np.float32 and not trunc.any()
        for i in range(64):
            if rew[i] == 0:  # autoreset step
                continue
            b = npuzzle.format_board([int(t) for t in before[i]])
            try:
                want = npuzzle.apply(b, "UDLR"[actions[i]])
            except ValueError:  # no tile to move: the board stays as it is
                want = b
            got = npuzzle.format_board([int(t) for t in obs[i]])
            assert got == want
            assert term[i] == (got == "1 2 3/4 5 6/7 8 0")
        done_seen += int(term.sum())
    assert done_seen > 0


def test_estimates_and_board_forms_match_the_cli():
    boards = [text(r) for r in npuzzle.scrambles("4x4", 6, seed=31)] + ["8 1 3/4 0 2/7 6 5"]
    for b in boards:
        tiles, size = npuzzle.parse_board(b)
        want = json.loads(cli("compare", "--json", "--time-limit", "0.01", b).stdout)["estimates"]
        for h, v in want.items():
            assert npuzzle.estimates(np.array([tiles]), size, h)[0] == v, (b, h)
    # Every form the CLI reads: inline, digits, grid lines; and the grid it prints.
    grid = "8 1 3\n4 0 2\n7 6 5\n"
    for form in ("8 1 3/4 0 2/7 6 5", "813402765", grid, "8,1,3/4,0,2/7,6,5"):
        assert npuzzle.parse_board(form) == ([8, 1, 3, 4, 0, 2, 7, 6, 5], "3x3"), form
    printed = npuzzle.format_board("813402765", grid=True)
    assert printed.split() == grid.replace("0", ".").split()
    assert npuzzle.parse_board(printed) == ([8, 1, 3, 4, 0, 2, 7, 6, 5], "3x3")
    assert npuzzle.format_board([1, 2, 3, 4, 5, 0], size="3x2") == "1 2 3/4 5 0"


def test_impossible_sizes_and_times_are_errors_not_crashes():
    import npuzzle.env

    with pytest.raises(ValueError, match="time_limit"):
        npuzzle.solve("8 1 3/4 0 2/7 6 5", time_limit=1e300)
    with pytest.raises(ValueError, match="count: expected at most 1000000000"):
        npuzzle.scrambles("4x4", 2**62)
    # Walks past the library's longest are refused before anything is allocated, in
    # every call that draws them (a walk of 10**12 moves once aborted the interpreter).
    for call in [
        lambda: npuzzle.scramble("4x4", seed=1, moves=10**12),
        lambda: npuzzle.scrambles("4x4", 2, seed=1, walk=10**12),
        lambda: npuzzle.env.SlidingPuzzleEnv(size="4x4", walk=10**12),
        lambda: npuzzle.env.SlidingPuzzleVectorEnv(num_envs=2, size="4x4", walk=10**12),
    ]:
        with pytest.raises(ValueError, match="expected a walk of 0 to 1000000 moves"):
            call()
    assert npuzzle.scramble("4x4", seed=1, moves=1_000_000)
    with pytest.raises(MemoryError, match="num"):
        npuzzle.env.SlidingPuzzleVectorEnv(num_envs=2**62, size="3x3")


def test_negative_and_huge_whole_numbers_are_named_value_errors():
    # Each whole-number argument, negative or past its type: a ValueError naming it, the
    # range and what was given (not an unnamed OverflowError).
    import npuzzle.env

    board = "8 1 3/4 0 2/7 6 5"
    b6 = npuzzle.scramble("6x6", seed=1)
    boards = npuzzle.scrambles("3x3", 2, seed=1)
    calls = [
        ("beam_width", lambda v: npuzzle.solve(b6, beam_width=v)),
        ("threads", lambda v: npuzzle.solve(board, threads=v)),
        ("solutions", lambda v: npuzzle.solve(board, algorithm="idastar", solutions=v)),
        ("seed", lambda v: npuzzle.scramble("3x3", seed=v)),
        ("moves", lambda v: npuzzle.scramble("3x3", moves=v)),
        ("count", lambda v: npuzzle.scrambles("3x3", v)),
        ("seed", lambda v: npuzzle.scrambles("3x3", 2, seed=v)),
        ("walk", lambda v: npuzzle.scrambles("3x3", 2, walk=v)),
        ("threads", lambda v: npuzzle.distances(boards, "3x3", threads=v)),
        ("threads", lambda v: npuzzle.estimates(boards, "3x3", threads=v)),
        ("threads", lambda v: npuzzle.solvable(boards, "3x3", threads=v)),
        ("threads", lambda v: npuzzle.PatternDatabases.build("3x3", "4-4", threads=v)),
        ("walk", lambda v: npuzzle.env.SlidingPuzzleEnv(size="3x3", walk=v)),
        ("walk", lambda v: npuzzle.env.SlidingPuzzleVectorEnv(num_envs=2, size="3x3", walk=v)),
    ]
    for name, call in calls:
        for v in (-1, 2**64, -(2**70)):
            with pytest.raises(ValueError, match=rf"{name}: expected a whole number from 0 to \d+, found {v}"):
                call(v)
    # In range, the same calls answer.
    assert npuzzle.solve(board, threads=1).length == npuzzle.solve(board, algorithm="bfs").length
    assert npuzzle.scramble("3x3", seed=2**64 - 1) == npuzzle.scramble("3x3", seed=2**64 - 1)


def test_progress_is_reported_and_ctrl_c_cancels_the_search():
    # Korf's hardest-looking 4x4 for Manhattan IDA*: many passes, each reported with the
    # bound it proved; the bounds only rise and stay below the optimum (80).
    board = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0"
    seen = []
    s = npuzzle.solve(board, heuristic="manhattan", time_limit=1.0, progress=seen.append)
    bounds = [p["bound"] for p in seen if p["bound"] is not None]
    assert len(bounds) >= 3 and bounds == sorted(bounds) and bounds[-1] <= 80, bounds
    assert all(p["algorithm"] for p in seen) and seen[-1]["expanded"] > 0
    assert s.algorithm == "fast" and s.lower_bound >= bounds[0]
    # An exception from the callback stops the search and comes out of solve.
    class Stop(Exception):
        pass

    def stop(p):
        raise Stop()

    with pytest.raises(Stop):
        npuzzle.solve(board, algorithm="idastar", heuristic="manhattan", progress=stop)
    # Ctrl-C (SIGINT) while a search runs: KeyboardInterrupt, at once, not after the search.
    import signal
    import threading
    import time

    # A shell that starts the tests in the background (`cmd &` without job control) hands
    # them SIGINT ignored, and Python then installs no handler: Ctrl-C's handler is put in
    # place for this part, as an interactive run has it.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        t = time.time()
        with pytest.raises(KeyboardInterrupt):
            npuzzle.solve(board, algorithm="idastar", heuristic="manhattan", time_limit=60)
        assert time.time() - t < 30
    finally:
        signal.signal(signal.SIGINT, before)


def test_big_boards_get_the_anytime_answer_improving():
    # A random 6x6: auto is the anytime solver; the answers it reports only get shorter,
    # the last one is the answer, and the bound stays below it.
    board = npuzzle.scramble("6x6", seed=5)
    seen = []
    s = npuzzle.solve(board, time_limit=0.5, progress=seen.append)
    best = [p["best"] for p in seen if p["best"] is not None]
    assert len(best) >= 2 and all(b < a for a, b in zip(best, best[1:])), best
    assert s.algorithm == "anytime" and s.length == best[-1]
    assert 0 < s.lower_bound <= s.length and npuzzle.verify(board, s.moves)
    # The fast solver stays the instant answer, and longer.
    f = npuzzle.solve(board, algorithm="fast")
    assert f.algorithm == "fast" and f.length > s.length


def test_zero_aware_databases_are_built_and_taken_where_there(tmp_path):
    plain = npuzzle.PatternDatabases.build("4x4", "5-5-5", directory=tmp_path)
    za = npuzzle.PatternDatabases.build("4x4", "5-5-5", directory=tmp_path, zero_aware=True)
    assert len(list(tmp_path.glob("*.za.npz"))) == 3
    loaded = npuzzle.PatternDatabases.load(tmp_path, "4x4", "5-5-5")
    boards = npuzzle.scrambles("4x4", 40, seed=9)
    e_plain = npuzzle.estimates(boards, "4x4", "pdb", pdbs=plain)
    e_za = npuzzle.estimates(boards, "4x4", "pdb", pdbs=za)
    # The loaded set is the zero-aware one: the same estimates, never below the plain ones,
    # and above them somewhere; the exact distances agree.
    assert (npuzzle.estimates(boards, "4x4", "pdb", pdbs=loaded) == e_za).all()
    assert (e_za >= e_plain).all() and (e_za > e_plain).any()
    dist = npuzzle.distances(boards[:6], "4x4", pdbs=loaded)
    assert dist.tolist() == npuzzle.distances(boards[:6], "4x4", pdbs=plain).tolist()
    assert (e_za[:6] <= dist).all()
    with pytest.raises(ValueError, match="up to 25 cells"):
        npuzzle.PatternDatabases.build("6x6", "1,2", zero_aware=True)


def test_a_panic_is_an_exception_and_the_interpreter_goes_on():
    """A panic in the extension (a bug) is raised as PanicException, wherever it happens:
    in the call, on its working thread or on a worker thread; the next call is answered.
    The package is built in release mode, as users get it."""
    fault = getattr(npuzzle._core, "_fault", None)
    assert fault is not None, "built without the fault-injection feature (test.sh builds with it)"
    for kind in ("here", "thread", "pool"):
        with pytest.raises(BaseException) as e:
            fault(kind)
        assert type(e.value).__name__ == "PanicException", (kind, e.value)
    assert npuzzle.solve("8 1 3/4 0 2/7 6 5").length > 0


def test_the_librarys_notes_are_logged_in_its_own_words(tmp_path):
    """The core's notes reach Python on the ``npuzzle`` logger (INFO), worded by the library
    with its remedy and no command line's command in them: here a named set that is not in
    the (empty) database folder, which a fast solve goes without."""
    import sys

    env = dict(os.environ, NPUZZLE_PDB_DIR=str(tmp_path / "pdb"),
               NPUZZLE_CACHE_DIR=str(tmp_path / "cache"), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    script = ("import logging, npuzzle\n"
              "logging.basicConfig(level=logging.INFO, format='%(name)s %(levelname)s %(message)s')\n"
              "s = npuzzle.solve('5 1 2 3/9 6 7 4/13 10 11 8/14 15 12 0', algorithm='fast', pdb='6-6-3')\n"
              "print(s.length)\n")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         check=False, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 0
    notes = [line for line in out.stderr.splitlines() if line.startswith("npuzzle INFO ")]
    assert any("the 6-6-3 pattern databases for 4x4 are not all in" in n
               and "(remedy: build the 6-6-3 pattern databases for 4x4 once, ahead)" in n
               for n in notes), out.stderr
    assert not any("npuzzle pdb" in n for n in notes), notes
    # Both a name and the databases: refused, as by every face.
    with pytest.raises(ValueError, match="found both"):
        npuzzle.solve("8 1 3/4 0 2/7 6 5", pdb="1,2,3,4/5,6,7,8",
                      pdbs=npuzzle.PatternDatabases.build("3x3", "1,2,3,4/5,6,7,8"))


def test_the_packages_show_only_their_own_names():
    """``dir(npuzzle)`` and ``dir(npuzzle.dask)`` hold the packages' own names, as their
    ``__all__`` lists them (no ``Any``, ``Optional``, ``np`` or ``annotations``), besides
    private ones and the submodules."""
    import npuzzle.dask

    for module in (npuzzle, npuzzle.dask):
        public = {n for n in dir(module) if not n.startswith("_")} - {"dask", "env"}
        assert public == set(module.__all__) - {"__version__"}, (module.__name__, public ^ set(module.__all__))

"""The three faces ask the library one question and give one answer: for boards of 3x3,
4x4, 5x5 and 6x6 and every kind of option, `npuzzle solve --json`, the server's
`/api/solve` and Python's `solve` agree on algorithm, heuristic, length, optimal, lower
bound and moves. The anytime solver's answer (auto past 25 cells) depends on the clock: there
the faces agree on everything but the length and the moves, and each face's moves are
checked to reach the goal."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request

import pytest

import npuzzle

from test_npuzzle import BIN, cli

# The fields every face must agree on.
FIELDS = ["solvable", "algorithm", "heuristic", "length", "optimal", "lower_bound", "weight", "moves", "solutions"]
# What the clock decides in an anytime answer.
TIMED = {"length", "moves"}


def agree(a: dict, b: dict, board: str, opts: dict) -> None:
    """Two faces' answers to one question are the same (an anytime answer: but for what
    the clock decides, each valid on its own)."""
    # (At one beam width nothing is left to the clock: every field must agree.)
    timed = a.get("algorithm") == "anytime" and "beam_width" not in opts
    for f in FIELDS:
        if not (timed and f in TIMED):
            assert a.get(f) == b.get(f), (f, board, opts, a, b)
    if timed:
        for r in (a, b):
            assert npuzzle.verify(board, r["moves"]), (board, r)
            assert r["lower_bound"] <= r["length"], r


def walk(size: str, moves: int, seed: int) -> str:
    out = cli("scramble", "--size", size, "--moves", str(moves), "--seed", str(seed))
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    """The 5-5-5 databases built once in a folder of the test's own, and a server on a
    free loopback port that preloaded them."""
    pdb_dir = tmp_path_factory.mktemp("pdb")
    empty = tmp_path_factory.mktemp("empty")
    out = cli("pdb", "build", "--size", "4x4", "--pdb", "5-5-5", "--pdb-dir", str(pdb_dir))
    assert out.returncode == 0, out.stderr
    env = dict(os.environ, NPUZZLE_PDB_DIR=str(pdb_dir), NPUZZLE_CACHE_DIR=str(empty))
    server = subprocess.Popen(
        [BIN, "serve", "--bind", "127.0.0.1:0", "--pdb", "5-5-5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    address = server.stdout.readline().strip().removeprefix("http://").rstrip("/")
    assert address.startswith("127.0.0.1:"), address
    pdbs = npuzzle.PatternDatabases.load(pdb_dir, "4x4", "5-5-5")
    yield {"address": address, "pdb_dir": pdb_dir, "empty": empty, "pdbs": pdbs}
    server.terminate()
    server.wait(timeout=30)


def ask_cli(faces, board: str, opts: dict, databases: bool) -> dict:
    flags = ["solve", "--json"]
    names = {"algorithm": "--algo", "heuristic": "--heuristic", "weight": "--weight", "metric": "--metric",
             "solutions": "--first", "time_limit": "--time-limit", "notation": "--notation",
             "beam_width": "--beam-width", "pdb": "--pdb", "exact": "--exact"}
    for k, v in opts.items():
        flags += [names[k]] if v is True else [names[k], str(v)]
    folder = faces["pdb_dir"] if databases else faces["empty"]
    flags += ["--pdb-dir", str(folder), "--cache-dir", str(faces["empty"]), board]
    out = cli(*flags)
    assert out.returncode == 0, (board, opts, out.stderr)
    return json.loads(out.stdout)


def ask_server(faces, board: str, opts: dict) -> dict:
    body = json.dumps({"board": board, **opts}).encode()
    req = urllib.request.Request(
        f"http://{faces['address']}/api/solve", data=body, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def ask_python(faces, board: str, opts: dict, databases: bool) -> dict:
    kwargs = dict(opts)
    if "pdb" in opts:
        # A set by name is looked up in the user's database folder: asked in a process
        # of its own whose folder is the CLI's (this process's core keeps its own, and a
        # set built there would change the answers of the cases without databases).
        import sys

        folder = faces["pdb_dir"] if databases else faces["empty"]
        env = dict(os.environ, NPUZZLE_PDB_DIR=str(folder), NPUZZLE_CACHE_DIR=str(faces["empty"]))
        script = ("import json, sys, npuzzle\n"
                  "print(npuzzle.solve(sys.argv[1], **json.loads(sys.argv[2])).to_json())\n")
        out = subprocess.run([sys.executable, "-c", script, board, json.dumps(kwargs)], env=env,
                             capture_output=True, text=True, check=False, timeout=300)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)
    if databases:
        kwargs["pdbs"] = faces["pdbs"]
    return json.loads(npuzzle.solve(board, **kwargs).to_json())


def cases() -> list:
    b3 = ["8 1 3/4 0 2/7 6 5", "8 6 7/2 5 4/3 0 1"]
    b4 = "7 3 1 10/2 4 15 8/9 5 0 14/13 6 11 12"
    out = []
    # 3x3: auto, every algorithm, every heuristic, weighted, multi-tile, several solutions.
    for b in b3:
        out.append((b, {}, False))
        for a in ["bfs", "bibfs", "astar", "iddfs", "idastar", "table", "fast"]:
            out.append((b, {"algorithm": a}, False))
        for h in ["misplaced", "manhattan", "linear-conflict", "walking-distance"]:
            out.append((b, {"algorithm": "idastar", "heuristic": h}, False))
            out.append((b, {"algorithm": "astar", "heuristic": h}, False))
        out.append((b, {"algorithm": "idastar", "weight": 1.5}, False))
        out.append((b, {"algorithm": "astar", "weight": 1.5}, False))
        out.append((b, {"metric": "mtm"}, False))
        out.append((b, {"solutions": 3}, False))
        out.append((b, {"notation": "blank"}, False))
    # 4x4: databases (auto and weighted) and without them.
    out.append((b4, {}, True))
    out.append((b4, {"weight": 1.5}, True))
    out.append((b4, {"algorithm": "fast"}, True))
    # Options every face takes: a set by name, proven answers only.
    out.append((b4, {"pdb": "5-5-5"}, True))
    out.append((b4, {"algorithm": "fast", "pdb": "5-5-5"}, True))
    out.append((b4, {"exact": True}, True))
    out.append((b4, {"exact": True, "heuristic": "linear-conflict"}, False))
    out.append((b4, {"heuristic": "linear-conflict"}, False))
    out.append((b4, {"heuristic": "walking-distance", "weight": 1.5}, False))
    out.append((b4, {"algorithm": "fast"}, False))
    out.append((walk("4x4", 30, 5), {"solutions": 3}, False))
    # 5x5 and 6x6: short walks solved exactly, a uniform 6x6 answered by the anytime solver
    # (in a second; a quarter of one asked for too).
    out.append((walk("5x5", 30, 3), {}, False))
    out.append((walk("5x5", 40, 4), {"algorithm": "fast"}, False))
    out.append((walk("6x6", 20, 2), {}, False))
    u6 = cli("scramble", "--size", "6x6", "--seed", "9").stdout.strip()
    out.append((u6, {}, False))
    out.append((u6, {"time_limit": 0.25}, False))
    # At one beam width there is no clock: the very same moves from every face.
    out.append((u6, {"beam_width": 32}, False))
    out.append((walk("6x6", 30, 6), {"weight": 2.0, "algorithm": "idastar"}, False))
    return out


@pytest.mark.parametrize("board,opts,databases", cases())
def test_every_face_gives_the_librarys_answer(faces, board, opts, databases):
    c = ask_cli(faces, board, opts, databases)
    p = ask_python(faces, board, opts, databases)
    agree(c, p, board, opts)
    if not databases and board.count("/") == 3 and "heuristic" not in opts and "solutions" not in opts:
        # The server preloaded the 4x4 databases, so it answers as the CLI and Python do
        # with them (the cases with databases above), not as they do without.
        return
    s = ask_server(faces, board, opts)
    agree(c, s, board, opts)


def test_an_exact_search_out_of_time_is_answered_alike(faces):
    """A 4x4 board whose Manhattan search outlasts its time limit: every face answers
    with the fast solver, not proven optimal, with the same moves; the bound proved
    depends on how far each search got, and is never above the optimum (38)."""
    board = "7 3 1 10/2 4 15 8/9 5 0 14/13 6 11 12"
    opts = {"heuristic": "misplaced", "time_limit": 0.3}
    answers = [ask_cli(faces, board, opts, False), ask_python(faces, board, opts, False), ask_server(faces, board, opts)]
    for a in answers:
        assert a["algorithm"] == "fast" and a["optimal"] is False, a
        assert a["lower_bound"] <= 38, a
        assert (a["length"], a["moves"]) == (answers[0]["length"], answers[0]["moves"]), (a, answers[0])


@pytest.mark.parametrize(
    "opts,says",
    [
        ({"solutions": 0}, "expected 1 to 1000 solutions (or all), found 0"),
        ({"solutions": 1001}, "expected 1 to 1000 solutions (or all), found 1001"),
        ({"time_limit": 0}, "expected a time limit above 0"),
    ],
)
def test_every_face_refuses_alike(faces, opts, says):
    """A value out of range is refused by every face, in the library's words."""
    board = "8 1 3/4 0 2/7 6 5"
    names = {"solutions": "--first", "time_limit": "--time-limit"}
    flags = ["solve", "--json"]
    for k, v in opts.items():
        flags += [names[k], str(v)]
    out = cli(*flags, board)
    assert out.returncode == 2 and says in out.stderr, out.stderr
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        npuzzle.solve(board, **opts)
    body = json.dumps({"board": board, **opts}).encode()
    req = urllib.request.Request(
        f"http://{faces['address']}/api/solve", data=body, headers={"content-type": "application/json"}
    )
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=120)
    assert e.value.code == 422
    assert says in json.loads(e.value.read())["error"]


def test_the_cli_and_python_take_one_memory_limit():
    """`--max-memory` and `max_memory=` are one limit: a search that needs more is refused
    in the library's words by both (each naming its own way to raise it), and one that fits
    answers alike."""
    board = "8 1 3/4 0 2/7 6 5"
    says = "bfs on 3x3 needs about 1.0 MiB but the memory limit is 1000 bytes"
    out = cli("solve", "--algo", "bfs", "--max-memory", "1000", board)
    assert out.returncode != 0 and says in out.stderr and "--max-memory raises the limit" in out.stderr, out.stderr
    with pytest.raises(ValueError) as e:
        npuzzle.solve(board, algorithm="bfs", max_memory=1000)
    assert says in str(e.value) and "max_memory raises the limit" in str(e.value), e.value
    out = cli("solve", "--json", "--algo", "bfs", "--max-memory", "64M", board)
    assert out.returncode == 0, out.stderr
    a = json.loads(out.stdout)
    b = json.loads(npuzzle.solve(board, algorithm="bfs", max_memory=64 << 20).to_json())
    assert (a["length"], a["moves"], a["optimal"]) == (b["length"], b["moves"], b["optimal"]), (a, b)
    # The CLI's form reads the same in Python: "64M" answers, "1000" is refused alike.
    c = json.loads(npuzzle.solve(board, algorithm="bfs", max_memory="64M").to_json())
    assert (c["length"], c["moves"]) == (a["length"], a["moves"]), (a, c)
    with pytest.raises(ValueError) as e:
        npuzzle.solve(board, algorithm="bfs", max_memory="1000")
    assert says in str(e.value), e.value
    # A size neither reads is refused by both in the library's words.
    out = cli("solve", "--max-memory", "lots", board)
    assert out.returncode != 0 and "expected a size such as 512M or 4G" in out.stderr, out.stderr
    with pytest.raises(ValueError, match='max_memory: expected a size such as 512M or 4G .*found "lots"'):
        npuzzle.solve(board, max_memory="lots")
    with pytest.raises(ValueError, match="max_memory: expected a whole number"):
        npuzzle.solve(board, max_memory=-1)
    with pytest.raises(TypeError, match="max_memory: expected a whole number of bytes or a size"):
        npuzzle.solve(board, max_memory=1.5)


def test_with_nothing_given_every_face_answers_alike(tmp_path):
    """As a user runs them, each in a process of its own, with nothing given but the user's
    cache: `npuzzle pdb build` saves the 5-5-5 set there; `npuzzle solve --json`, Python's
    `npuzzle.solve(board)` and `npuzzle serve` (no --pdb) each find it, and answer every
    board alike (before, Python built 6-6-3 in memory in every process and answered otherwise)."""
    import sys

    env = dict(os.environ, NPUZZLE_PDB_DIR=str(tmp_path / "pdb"),
               NPUZZLE_CACHE_DIR=str(tmp_path / "cache"), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    built = subprocess.run([BIN, "pdb", "build", "--size", "4x4", "--pdb", "5-5-5"], env=env,
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    boards = [walk("4x4", 60, s) for s in range(6)] + ["5 1 2 3/9 6 7 4/13 10 11 8/14 15 12 0"]
    text = "\n".join(boards) + "\n"
    out = subprocess.run([BIN, "solve", "--json", "--threads", "1"], input=text, env=env,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    by_cli = [json.loads(line) for line in out.stdout.splitlines()]
    script = ("import sys, npuzzle\n"
              "for line in sys.stdin:\n"
              "    print(npuzzle.solve(line.strip()).to_json())\n")
    out = subprocess.run([sys.executable, "-c", script], input=text, env=env,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    by_python = [json.loads(line) for line in out.stdout.splitlines()]
    server = subprocess.Popen([BIN, "serve", "--bind", "127.0.0.1:0"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        address = server.stdout.readline().strip().removeprefix("http://").rstrip("/")
        by_server = [ask_server({"address": address}, b, {}) for b in boards]
    finally:
        server.terminate()
        server.wait(timeout=30)
    for b, c, p, s in zip(boards, by_cli, by_python, by_server):
        assert c["heuristic"].startswith("pdb 5-5-5"), c
        agree(c, p, b, {})
        agree(c, s, b, {})

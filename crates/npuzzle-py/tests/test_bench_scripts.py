"""The benchmark helper that turns DeepCubeA's test pickles into `npuzzle bench` files
(bench/deepcubea-boards.py): boards, goal and comparison, end to end with the CLI."""

import os
import pickle
import subprocess
import sys
import types
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "bench" / "deepcubea-boards.py"


def _pickle_like_deepcubea(path, tiles_list):
    """A pickle shaped as DeepCubeA's test data: a dict whose `states` are objects of a
    class from a module the reader does not have, each holding its tiles as a numpy array."""
    module = types.ModuleType("fake_deepcubea_n_puzzle")

    class NPuzzleState:
        def __init__(self, tiles):
            self.tiles = np.array(tiles, dtype=np.uint8)
            self.hash = None

    NPuzzleState.__module__ = module.__name__
    NPuzzleState.__qualname__ = "NPuzzleState"
    module.NPuzzleState = NPuzzleState
    sys.modules[module.__name__] = module
    try:
        with open(path, "wb") as f:
            pickle.dump({"states": [NPuzzleState(t) for t in tiles_list]}, f)
    finally:
        del sys.modules[module.__name__]


def _run(*args):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True
    )


def test_boards_goal_and_compare_work_with_the_cli(tmp_path):
    boards = [[1, 2, 3, 4, 5, 6, 0, 7, 8], [4, 1, 3, 0, 2, 6, 7, 5, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0]]
    pkl = tmp_path / "data_0.pkl"
    _pickle_like_deepcubea(pkl, boards)

    out = _run("boards", pkl)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines == [f"{k} " + " ".join(map(str, b)) for k, b in enumerate(boards)]
    assert _run("boards", pkl, 2).stdout.splitlines() == lines[:2]

    goal = _run("goal", pkl)
    assert goal.returncode == 0, goal.stderr
    assert goal.stdout.strip() == "1 2 3 4 5 6 7 8 0"

    # The file is one `npuzzle bench` reads, towards that goal.
    bench_file = tmp_path / "boards.txt"
    bench_file.write_text(out.stdout)
    cli = os.environ.get("NPUZZLE_BIN", str(ROOT / "target" / "debug" / "npuzzle"))
    bench = subprocess.run(
        [
            cli, "bench", str(bench_file), "--goal", goal.stdout.strip(), "--algo", "anytime",
            "--threads", "1", "--pdb-dir", str(tmp_path),
        ],
        capture_output=True,
        text=True,
    )
    assert bench.returncode == 0, bench.stderr
    log = tmp_path / "bench.log"
    log.write_text(bench.stdout)
    # These boards are a few moves from the goal: the anytime solver's opening exact
    # search answers them in 2, 5 and 0 moves (shortest); "theirs" are made up.
    theirs = tmp_path / "output.txt"
    theirs.write_text(
        "".join(
            f"State: {k}, SolnCost: {n}.00, # Moves: {n}, # Nodes Gen: 10, Time: 0.01\n"
            for k, n in enumerate([2, 7, 0])
        )
    )
    cmp = _run("compare", log, theirs)
    assert cmp.returncode == 0, cmp.stderr + bench.stdout
    last = cmp.stdout.splitlines()[-1]
    assert last.startswith("3 boards: ours 2.33 moves, theirs 3.00"), cmp.stdout
    assert "ours shorter on 1, equal on 2" in last, cmp.stdout


def test_bad_pickles_and_arguments_are_refused_with_a_reason(tmp_path):
    pkl = tmp_path / "bad.pkl"
    _pickle_like_deepcubea(pkl, [[1, 2, 3, 4, 5, 6, 7, 8]])
    out = _run("boards", pkl)
    assert out.returncode != 0
    assert "expected a square board of tiles 0..n-1 in state 0" in out.stderr

    out = _run("compare", tmp_path / "missing.log", tmp_path / "missing.txt")
    assert out.returncode != 0

    out = _run()
    assert out.returncode != 0
    assert "Usage" in out.stderr


class _Calls:
    """Pickles as a call of os.system: what a hostile pickle could hold."""

    def __reduce__(self):
        return (os.system, ("echo never",))


def test_a_pickle_naming_anything_but_boards_and_arrays_is_refused(tmp_path):
    pkl = tmp_path / "hostile.pkl"
    with open(pkl, "wb") as f:
        pickle.dump({"states": [_Calls()]}, f)
    out = _run("boards", pkl)
    assert out.returncode != 0
    assert "never" not in out.stdout
    assert "refusing" in out.stderr and "system" in out.stderr, out.stderr


def test_record_writes_a_benchmarks_figures_as_data(tmp_path):
    """bench/record.py runs an `npuzzle bench` command and puts its figures in the results
    file: date, machine, command, commit, and the row, replacing the row of the same
    command and set (the others stay)."""
    import json

    results = tmp_path / "results"
    results.mkdir()
    old = {"benchmark": "small", "order": 1, "title": "t", "description": "d",
           "columns": [{"field": "set", "header": "databases"}],
           "records": [{"benchmark": "small", "date": "2020-01-01", "machine": "m",
                        "command": "npuzzle bench --set random --size 3x3 --count 5 --seed 1",
                        "commit": "abc", "figures": [{"set": "table"}, {"set": "other"}]}]}
    (results / "small.json").write_text(json.dumps(old))
    binary = os.environ["NPUZZLE_BIN"]
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "record.py"), "small", "--set-name", "table", "--runs", "2",
         "--results", str(results), "--no-tables", "--",
         binary, "bench", "--set", "random", "--size", "3x3", "--count", "5", "--seed", "1"],
        capture_output=True, text=True, check=False, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads((results / "small.json").read_text())
    new, kept = data["records"][0], data["records"][1]
    assert new["command"] == "npuzzle bench --set random --size 3x3 --count 5 --seed 1"
    assert new["date"] and new["commit"] and "cores" in new["machine"]
    row = new["figures"][0]
    # (A random set's reference is the Manhattan bound, not the optimum.)
    assert row["set"] == "table" and row["expanded"] >= 0, row
    assert row["answers"] == "all 5 optimal" or row["answers"].startswith("5 of 5 solved, x"), row
    assert row["searching"].endswith(" s") and row["whole"].endswith(" s")
    assert kept["figures"] == [{"set": "other"}], kept
    # Without -- and a command: refused, saying so.
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "record.py"), "small", "--set-name", "x",
                          "--results", str(results)], capture_output=True, text=True, check=False)
    assert out.returncode == 2 and "expected -- then" in out.stderr, out.stderr


def test_other_scripts_record_their_rows_by_key(tmp_path):
    """record.save, through which dask-bench.py and judge-vs-seeds.sh write their figures:
    a row of the same command and key replaces the old one, other rows and commands stay,
    the note is kept."""
    import importlib.util
    import json

    spec = importlib.util.spec_from_file_location("record", ROOT / "bench" / "record.py")
    record = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(record)
    results = tmp_path / "results"
    results.mkdir()
    cmd = "python bench/dask-bench.py overhead --tasks 5000"
    old = {"benchmark": "dask", "records": [
        {"command": cmd, "figures": [{"what": "empty tasks", "task": "9 ms"}, {"what": "other", "task": "1 ms"}]},
        {"command": "another", "figures": [{"what": "empty tasks", "task": "5 ms"}]}]}
    (results / "dask.json").write_text(json.dumps(old))
    entry = record.save("dask", cmd, [{"what": "empty tasks", "task": "1.6 ms"}], "a cluster",
                        key="what", note="n", results=results)
    data = json.loads((results / "dask.json").read_text())
    assert data["records"][0] == entry
    assert entry["setup"] == "a cluster" and entry["note"] == "n" and entry["commit"]
    assert data["records"][1] == {"command": cmd, "figures": [{"what": "other", "task": "1 ms"}]}
    assert data["records"][2]["figures"] == [{"what": "empty tasks", "task": "5 ms"}]
    assert (results / "dask.json").read_text().startswith('{\n  "benchmark"')


def test_deepcubea_runs_their_boards_and_records_the_comparison(tmp_path):
    """bench/deepcubea.py: DeepCubeA's boards solved by the CLI's anytime solver (each answer
    verified by bench), compared with DeepCubeA's lengths from bench/deepcubea/, the row
    recorded where asked."""
    import json

    results = tmp_path / "results"
    results.mkdir()
    (results / "deepcubea.json").write_text(json.dumps({"benchmark": "deepcubea", "records": []}))
    cli = os.environ.get("NPUZZLE_BIN", str(ROOT / "target" / "debug" / "npuzzle"))
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "deepcubea.py"), "6x6", "--first", "2", "--time-limit", "0.5",
         "--threads", "1", "--npuzzle", cli, "--record", "--results", str(results)],
        capture_output=True, text=True, check=False, timeout=300)
    assert out.returncode == 0, out.stderr
    theirs = [l.split() for l in (ROOT / "bench" / "deepcubea" / "puzzle35-deepcubea.txt").read_text().splitlines()
              if l and not l.startswith("#")]
    rows = [l.split() for l in out.stdout.splitlines() if " ours " in l and " theirs " in l]
    assert [r[0] for r in rows] == ["0", "1"], out.stdout
    assert [r[4] for r in rows] == [theirs[0][1], theirs[1][1]], out.stdout
    assert all(int(r[2]) >= 2 for r in rows)
    entry = json.loads((results / "deepcubea.json").read_text())["records"][0]
    row = entry["figures"][0]
    assert row["boards"] == "6x6, first 2" and row["time"] == "0.5 s", row
    assert abs(float(row["theirs"].split()[0]) - (int(theirs[0][1]) + int(theirs[1][1])) / 2) < 0.01, row
    # Bad arguments: refused, saying what was expected.
    bad = subprocess.run([sys.executable, str(ROOT / "bench" / "deepcubea.py"), "6x6", "--first", "0"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "expected 1 to 500" in bad.stderr, bad.stderr


def test_the_cluster_projection_reads_either_heuristics_recorded_nodes():
    """`dask-bench.py calibrate` and `paper` need no npuzzle: they read the recorded node
    counts of the heuristic named (the 15 quickest and instance 20), and another name is
    refused."""
    script = ROOT / "bench" / "dask-bench.py"

    def run(*args):
        return subprocess.run(
            [sys.executable, str(script), *args], capture_output=True, text=True
        )

    ratios = {}
    for heuristic in ("catalogue", "small", "small18"):
        out = run("calibrate", "--heuristic", heuristic)
        assert out.returncode == 0, out.stderr
        assert "16 instances measured: 1, 5, 13, 16, 20," in out.stdout
        line = next(l for l in out.stdout.splitlines() if l.split()[:1] == ["6666"])
        ratios[heuristic] = float(line.split()[1])
    # The seven partitions take fewer nodes than the catalogue on the same instances, and
    # fewer still with the 18-move duplicate machine.
    assert ratios["small18"] < ratios["small"] < ratios["catalogue"]
    out = run("paper", "--heuristic", "small", "--rate", "2.6e6", "--ratio", "0.1",
              "--machines", "1", "--cores", "2")
    assert out.returncode == 0, out.stderr
    assert "instance 20 (92 moves)" in out.stdout and "measured: 1.48e+09" in out.stdout
    out = run("paper", "--heuristic", "small18", "--rate", "2.0e6", "--ratio", "0.09",
              "--machines", "1", "--cores", "2")
    assert out.returncode == 0, out.stderr
    assert "measured: 1.33e+09" in out.stdout
    out = run("calibrate", "--heuristic", "nine")
    assert out.returncode != 0 and "invalid choice" in out.stderr

"""Measures npuzzle.dask on this machine: a batch of 4x4 boards on 1 and 2 worker processes
(alternating, each on a fresh LocalCluster at 127.0.0.1), and the split solve of one of
Korf & Felner's 24-puzzle instances on 1 and 2 workers against the one-machine search.

    python bench/dask-bench.py batch --pdb-dir DIR --count 400 --rounds 2
    python bench/dask-bench.py split --pdb-dir DIR --id 1 --rounds 1
    python bench/dask-bench.py overhead --tasks 5000
    python bench/dask-bench.py calibrate
    python bench/dask-bench.py paper --rate 3.72e6 --column 6666 --ratio 0.2451 --efficiency 0.95
    python bench/dask-bench.py calibrate --heuristic small
    python bench/dask-bench.py paper --heuristic small --rate 2.603e6 --column 6666 --ratio 0.0966

`calibrate` and `paper` compare with the recorded node counts of the zero-aware 6-6-6-6x4
catalogue, or with `--heuristic small` those of bench/pdb/korf24-small.txt's seven partitions
(`small18`: the same with the 18-move duplicate machine that 5x5 searches use now).

With `--record`, batch, split and overhead write their figures into bench/results/dask.json
(through bench/record.py) and docs/benchmarks.md is written again.

The databases must be in DIR already (`npuzzle pdb build --size 4x4 --pdb 5-5-5` and
`npuzzle pdb build --size 5x5 --pdb 6-6-6-6 --goal "0 1 2 ... 24"`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

try:
    import npuzzle
    import npuzzle.dask as nd
except ImportError:  # `calibrate` and `paper` need no npuzzle
    npuzzle = nd = None

sys.path.insert(0, str(Path(__file__).resolve().parent))
import record  # noqa: E402  (bench/record.py, beside this script)

SETUP = "a LocalCluster of single-threaded worker processes at 127.0.0.1, each cluster started fresh"

KORF24_GOAL = "/".join(" ".join(str(5 * r + c) for c in range(5)) for r in range(5))


def cluster(workers: int):
    from distributed import Client, LocalCluster

    c = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                     host="127.0.0.1", dashboard_address=None)
    return c, Client(c)


def batch(a) -> None:
    dbs = nd.Databases(a.pdb_dir, "4x4", a.partition)
    boards = [npuzzle.scramble("4x4", seed=a.seed + i) for i in range(a.count)]
    pdbs = dbs.get()
    t0 = time.perf_counter()
    local = [npuzzle.solve(b, pdbs=pdbs, threads=1) for b in boards[: a.count // 10]]
    per = (time.perf_counter() - t0) / max(1, len(local))
    print(f"one process, one thread: {per * a.count:.1f} s expected for {a.count} boards "
          f"({per * 1000:.1f} ms a board)", flush=True)
    took_by = {1: [], 2: []}
    counts = set()
    for r in range(a.rounds):
        for w in (1, 2):
            cl, c = cluster(w)
            c.run(lambda: dbs.get() and None)  # databases loaded before the clock starts
            t0 = time.perf_counter()
            got = nd.solve_many(boards, client=c, databases=dbs, progress=False)
            took = time.perf_counter() - t0
            nodes = sum(s.expanded for s in got)
            took_by[w].append(took)
            counts.add(nodes)
            print(f"round {r + 1}: {w} worker(s): {took:.2f} s, {a.count / took:.2f} boards/s, "
                  f"{nodes} nodes expanded", flush=True)
            c.close()
            cl.close()
    if a.record:
        shown = f"python bench/dask-bench.py batch --pdb-dir DIR --count {a.count} --rounds {a.rounds}"
        if a.partition != "5-5-5":
            shown += f" --partition {a.partition}"
        row = {
            "what": f"solve_many, {a.count} uniform random 4x4 boards, {a.partition} databases",
            "w1": ", ".join(f"{t:.1f} s" for t in took_by[1]),
            "w2": ", ".join(f"{t:.1f} s" for t in took_by[2]),
            "speedup": ", ".join(f"{x / y:.2f}x" for x, y in zip(took_by[1], took_by[2])),
        }
        note = (f"{counts.pop():,} nodes expanded on any number of workers" if len(counts) == 1
                else "expanded nodes differ between runs: " + ", ".join(f"{n:,}" for n in sorted(counts)))
        save(shown, row, note)


def save(shown: str, row: dict, note: str | None = None) -> None:
    """One row of dask.json, keyed by its workload, and the tables written again."""
    record.save("dask", shown, [row], SETUP, key="what", note=note)
    record.tables()


def split(a) -> None:
    rows = [l.split() for l in Path(a.instances).read_text().splitlines()
            if l.strip() and not l.startswith("#")]
    row = next(r for r in rows if r[0] == str(a.id))
    tiles, optimal = [int(t) for t in row[1:26]], int(row[26])
    board = npuzzle.format_board(tiles, "5x5")
    dbs = nd.Databases(a.pdb_dir, "5x5", "6-6-6-6", goal=KORF24_GOAL, load="map")
    pdbs = dbs.get()
    row = {"what": f"solve, Korf & Felner's instance {a.id} ({optimal} moves), 6-6-6-6 + reflection"}
    took = {}
    for r in range(a.rounds):
        if not a.skip_one:
            t0 = time.perf_counter()
            one = npuzzle.solve(board, goal=KORF24_GOAL, algorithm="idastar", pdbs=pdbs, threads=2)
            t = time.perf_counter() - t0
            row["local"] = f"{t:.1f} s, {one.expanded:,} expanded"
            print(f"round {r + 1}: one machine (2 threads): {t:.1f} s, "
                  f"length {one.length} (optimal {optimal}), {one.expanded} expanded, "
                  f"{one.generated} generated", flush=True)
        for w in (1, 2):
            cl, c = cluster(w)
            c.run(lambda: dbs.get() and None)
            t0 = time.perf_counter()
            s = nd.solve(board, c, databases=dbs, goal=KORF24_GOAL,
                         progress=lambda p: print("   ", p, flush=True))
            took[w] = time.perf_counter() - t0
            if s.length != optimal:
                raise SystemExit(f"instance {a.id}: expected {optimal} moves, found {s.length}")
            row[f"w{w}"] = f"{took[w]:.1f} s, {s.expanded:,} expanded"
            print(f"round {r + 1}: split on {w} worker(s): {took[w]:.1f} s, "
                  f"length {s.length}, {s.expanded} expanded, {s.generated} generated",
                  flush=True)
            c.close()
            cl.close()
    if a.record:
        row["speedup"] = f"{took[1] / took[2]:.2f}x"
        save(f"python bench/dask-bench.py split --pdb-dir DIR --id {a.id}", row,
             f"the last of {a.rounds} round(s)")


def overhead(a) -> None:
    """Seconds a task costs on a LocalCluster of 2 workers: empty tasks, submitted at once."""
    cl, c = cluster(2)
    c.submit(int, 0).result()
    per = []
    for r in range(a.rounds):
        t0 = time.perf_counter()
        futs = c.map(lambda i: i, range(a.tasks), pure=False)
        c.gather(futs)
        took = time.perf_counter() - t0
        per.append(took / a.tasks * 1e3)
        print(f"round {r + 1}: {a.tasks} empty tasks in {took:.2f} s: {per[-1]:.3f} ms a task")
        del futs
    c.close()
    cl.close()
    if a.record:
        row = {"what": "empty tasks (scheduler, client and workers sharing two cores)",
               "task": record.span(per, "ms", 1)}
        save(f"python bench/dask-bench.py overhead --tasks {a.tasks}", row)


RESULTS = Path(__file__).resolve().parent / "results"


def published(path: str) -> tuple[list[str], dict[int, dict[str, int]]]:
    """The published counts: the column names, and each instance's row by id (every field a
    whole number). A file that cannot be read, or a field that is not a whole number, ends
    the script saying what and where."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"{path}: cannot read the published counts: {e}")
    cols: list[str] = []
    rows: dict[int, dict[str, int]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("id "):
            cols = line.split()
        elif line.strip() and line[0].isdigit():
            fields = line.split()
            if len(fields) != len(cols):
                sys.exit(f"{path}:{n}: expected {len(cols)} fields ({' '.join(cols)}), "
                         f"found {len(fields)}")
            try:
                row = {c: int(v) for c, v in zip(cols, fields)}
            except ValueError:
                sys.exit(f"{path}:{n}: expected whole numbers, found {line!r}")
            rows[row["id"]] = row
    if len(cols) < 3 or not rows:
        sys.exit(f"{path}: expected a header `id optimal COLUMN...` and rows of counts, "
                 f"found {len(cols)} columns and {len(rows)} rows")
    return cols, rows


# The recorded node counts `calibrate` and `paper` read, per heuristic: the field of the
# per-instance record of the 15 quickest, and the heuristic's name in instance 20's.
MEASURED = {
    "catalogue": ("za_expanded", "npuzzle: 6-6-6-6x4 catalogue, zero-aware"),
    "small": ("small_t_expanded", "npuzzle: Clausecker's small catalogue, 7 partitions (zero-aware)"),
    "small18": ("small18_expanded",
                "npuzzle: Clausecker's small catalogue, 7 partitions (zero-aware), 18-move duplicate machine"),
}


def measured(heuristic: str = "catalogue") -> dict[int, int]:
    """A heuristic's expanded nodes per instance, as recorded: the 15 quickest one by one
    and instance 20 (`catalogue`: the zero-aware 6-6-6-6x4 catalogue; `small`: the seven
    partitions of bench/pdb/korf24-small.txt, whose nodes on the 15 are the fourteen's,
    with the 16-move duplicate machine; `small18`: the same with the 18-move machine)."""
    field, name = MEASURED[heuristic]
    ours: dict[int, int] = {}
    per = json.loads((RESULTS / "korf24-15-per-instance.json").read_text())
    for rec in per["records"]:
        for f in rec["figures"]:
            if field in f:
                ours[f["instance"]] = f[field]
    twenty = json.loads((RESULTS / "korf24-instance-20.json").read_text())
    for rec in twenty["records"]:
        for f in rec["figures"]:
            if f.get("heuristic") == name:
                ours[20] = f["expanded"]
    return ours


def calibrate(a) -> None:
    """How well each published column predicts our node counts, on the instances measured
    here: per column, our total over its total (the ratio `paper` scales by), and the
    spread of the per-instance ratios (the standard deviation of their logarithms: the
    smaller, the better the column predicts an instance)."""
    cols, rows = published(a.published)
    ours = measured(a.heuristic)
    ids = sorted(ours)
    missing = [i for i in ids if i not in rows]
    if missing:
        sys.exit(f"{a.published}: expected the measured instances, found none for "
                 f"{', '.join(map(str, missing))}")
    print(f"{len(ids)} instances measured: {', '.join(map(str, ids))}")
    print(f"{'column':>10} {'total ratio':>12} {'geometric':>10} {'sd(log)':>8} {'least':>7} {'most':>7}")
    for col in cols[2:]:
        r = [ours[i] / rows[i][col] for i in ids]
        logs = [math.log(x) for x in r]
        mean = sum(logs) / len(logs)
        sd = (sum((x - mean) ** 2 for x in logs) / (len(logs) - 1)) ** 0.5
        total = sum(ours.values()) / sum(rows[i][col] for i in ids)
        print(f"{col:>10} {total:12.4f} {math.exp(mean):10.4f} {sd:8.3f} {min(r):7.3f} {max(r):7.3f}")


def paper(a) -> None:
    """All 50 of Korf & Felner's instances on a cluster, on paper: each instance's nodes
    estimated as `ratio` x a published column's count (`column`: see `calibrate` for how
    well each predicts ours, and the ratio), searched at `rate` expanded nodes a second per
    worker thread with `efficiency`, plus the scheduler's cost per task (`task_ms`, tasks of
    `task_seconds`) and `pass_seconds` of driver work per distributed pass (8 passes an
    instance). Instances measured here are shown beside their estimates."""
    cols, rows = published(a.published)
    if a.column not in cols[2:]:
        sys.exit(f"--column: expected one of {', '.join(cols[2:])}, found {a.column!r}")
    ours = measured(a.heuristic)
    workers = a.machines * a.cores
    total = 0.0
    print(f"{workers} worker threads, {a.rate:.3g} nodes/s each, efficiency {a.efficiency}")
    for i, r in sorted(rows.items()):
        nodes = a.ratio * r[a.column]
        compute = nodes / (workers * a.rate * a.efficiency)
        tasks = nodes / (a.rate * a.task_seconds)
        sched = tasks * a.task_ms / 1000
        t = max(compute, sched) + 8 * a.pass_seconds
        total += t
        seen = f"  (measured: {ours[i]:.3g} nodes)" if i in ours else ""
        print(f"  instance {i:>2} ({r['optimal']} moves): {nodes:.3g} nodes, {t:8.1f} s"
              f"{'  (scheduler-bound)' if sched > compute else ''}{seen}")
    print(f"all 50 one after another: {total:.0f} s = {total / 60:.1f} min = {total / 3600:.2f} h")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    b = sub.add_parser("batch")
    b.add_argument("--pdb-dir", required=True)
    b.add_argument("--partition", default="5-5-5")
    b.add_argument("--count", type=int, default=400)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--rounds", type=int, default=2)
    s = sub.add_parser("split")
    s.add_argument("--pdb-dir", required=True)
    s.add_argument("--id", type=int, default=1)
    s.add_argument("--rounds", type=int, default=1)
    s.add_argument("--skip-one", action="store_true")
    s.add_argument("--instances", default=str(Path(__file__).resolve().parent.parent / "testdata" / "korf24_50.txt"))
    o = sub.add_parser("overhead")
    o.add_argument("--tasks", type=int, default=5000)
    o.add_argument("--rounds", type=int, default=3)
    for sp in (b, s, o):
        sp.add_argument("--record", action="store_true",
                        help="write the figures into bench/results/dask.json")
    q = sub.add_parser("paper")
    q.add_argument("--rate", type=float, required=True, help="expanded nodes/s a worker thread")
    q.add_argument("--ratio", type=float, required=True,
                   help="our nodes / the column's (see calibrate)")
    q.add_argument("--column", default="6666",
                   help="the published column scaled (see calibrate) [6666]")
    q.add_argument("--efficiency", type=float, default=0.95)
    q.add_argument("--machines", type=int, default=100)
    q.add_argument("--cores", type=int, default=32)
    q.add_argument("--task-ms", type=float, default=1.0)
    q.add_argument("--task-seconds", type=float, default=10.0)
    q.add_argument("--pass-seconds", type=float, default=1.0)
    c = sub.add_parser("calibrate")
    for sp in (q, c):
        sp.add_argument("--heuristic", choices=sorted(MEASURED), default="catalogue",
                        help="whose recorded node counts to compare with [catalogue]")
        sp.add_argument("--published", default=str(Path(__file__).resolve().parent.parent / "testdata" / "korf24_published_nodes.txt"))
    a = p.parse_args()
    if a.what in ("batch", "split", "overhead") and npuzzle is None:
        sys.exit("npuzzle is not installed here: see docs/python.md")
    {"batch": batch, "split": split, "overhead": overhead, "paper": paper,
     "calibrate": calibrate}[a.what](a)

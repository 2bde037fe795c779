#!/usr/bin/env python3
"""Our anytime solver on DeepCubeA's own test boards, against DeepCubeA's answers.

    python3 bench/deepcubea.py 6x6 --time-limit 10 --threads 2            # all 500 boards
    python3 bench/deepcubea.py 7x7 --first 50 --time-limit 10 --record    # and into the results

The boards and DeepCubeA's answers are in bench/deepcubea/ (see its NOTICE): 500 boards of
the 35-puzzle (6x6) and 500 of the 48-puzzle (7x7), towards DeepCubeA's goal (tiles in
order, blank last). Each board is solved by `npuzzle bench --algo anytime` at the time
limit, one board at a time on `--threads` threads, under /usr/bin/time -v for the peak
memory; every answer is verified by `bench`. Printed: per board our length and theirs, and
the means; with `--record`, one row of bench/results/deepcubea.json (through record.py) and
docs/benchmarks.md written again. The databases the anytime solver ranks by must be cached
(`npuzzle pdb build --size 6x6`, and `--size 7x7` for 7x7) for the figures to mean what the
table says: the script says which were used.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "deepcubea"
sys.path.insert(0, str(ROOT / "bench"))
import record  # noqa: E402

SIZES = {"6x6": "puzzle35", "7x7": "puzzle48"}


def load(size: str) -> tuple[list[str], dict[int, tuple[int, float]]]:
    """The board lines (`id t0 t1 ...`) and DeepCubeA's (moves, seconds) per id."""
    name = SIZES[size]
    boards = [l for l in (DATA / f"{name}.txt").read_text().splitlines() if l.strip()]
    theirs = {}
    for line in (DATA / f"{name}-deepcubea.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            k, moves, secs, _ = line.split()
            theirs[int(k)] = (int(moves), float(secs))
    return boards, theirs


def run(size: str, boards: list[str], time_limit: float, threads: int, binary: str) -> tuple[list[dict], dict, float | None]:
    """`npuzzle bench` on `boards`: its per-board JSON lines, its summary and the peak
    memory in MB (None without /usr/bin/time)."""
    n = int(size.split("x")[0]) ** 2
    goal = " ".join(map(str, list(range(1, n)) + [0]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "boards.txt"
        path.write_text("\n".join(boards) + "\n")
        command = [binary, "bench", str(path), "--goal", goal, "--algo", "anytime",
                   "--time-limit", str(time_limit), "--threads", str(threads), "--json"]
        timer = shutil.which("time", path="/usr/bin")
        out = subprocess.run(([timer, "-v"] if timer else []) + command, capture_output=True,
                             text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"deepcubea.py: npuzzle bench exited {out.returncode}: {out.stderr.strip()[-800:]}")
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    per, summary = [l for l in lines if "id" in l], lines[-1]
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
    peak = int(m.group(1)) / 1024 if m else None
    return per, summary, peak


def cached_sets(binary: str) -> list[str]:
    """The anytime solver's database sets in the user's folder (6x6, 7x7), by `pdb list`."""
    out = subprocess.run([binary, "pdb", "list"], capture_output=True, text=True, check=False)
    return [s for s in ("6x6", "7x7") if f"pdb-{s}-" in out.stdout]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("size", choices=sorted(SIZES), help="6x6 (35-puzzle) or 7x7 (48-puzzle)")
    p.add_argument("--first", type=int, default=500, help="the first N boards [500: all]")
    p.add_argument("--time-limit", type=float, default=10.0, help="seconds a board [10]")
    p.add_argument("--threads", type=int, default=2, help="threads a board [2]")
    p.add_argument("--npuzzle", default=str(ROOT / "target" / "release" / "npuzzle"),
                   help="the npuzzle binary [target/release/npuzzle]")
    p.add_argument("--record", action="store_true",
                   help="write the row into bench/results/deepcubea.json")
    p.add_argument("--results", type=Path, default=ROOT / "bench" / "results",
                   help="the results folder [bench/results]; another one is not tabled")
    a = p.parse_args(argv)
    if not 1 <= a.first <= 500:
        p.error(f"--first: expected 1 to 500, found {a.first}")
    if not 0 < a.time_limit <= 3600:
        p.error(f"--time-limit: expected more than 0 and at most 3600 seconds, found {a.time_limit}")
    if not Path(a.npuzzle).is_file():
        p.error(f"--npuzzle: expected the npuzzle binary, found no file at {a.npuzzle} (cargo build --release)")
    boards, theirs = load(a.size)
    per, summary, peak = run(a.size, boards[: a.first], a.time_limit, a.threads, a.npuzzle)
    if summary.get("solved") != len(per) or not all(r.get("ok") for r in per):
        raise SystemExit(f"deepcubea.py: expected every answer verified, found {summary}")
    ours = [r["length"] for r in per]
    them = [theirs[r["id"]][0] for r in per]
    for r, b in zip(per, them):
        print(f"{r['id']:4} ours {r['length']:4} theirs {b:4}  x{r['length'] / b:.3f}  {r['seconds']:.2f} s")
    count = len(ours)
    mean_ours, mean_them = sum(ours) / count, sum(them) / count
    mean_secs = sum(theirs[r["id"]][1] for r in per) / count
    shorter = sum(x < y for x, y in zip(ours, them))
    equal = sum(x == y for x, y in zip(ours, them))
    ratios = [x / y for x, y in zip(ours, them)]
    manhattan = summary["total_length"] / summary["total_reference"]
    sets = cached_sets(a.npuzzle)
    print(f"{count} boards: ours {mean_ours:.2f} moves, DeepCubeA {mean_them:.2f} ({mean_secs:.0f} s a board); "
          f"x{mean_ours / mean_them:.3f}; shorter on {shorter}, equal on {equal}; "
          f"x{manhattan:.3f} Manhattan" + (f"; peak {peak:.0f} MB" if peak else ""))
    print(f"databases cached: {', '.join(sets) or 'none'}")
    if a.record:
        which = "all 500" if count == 500 else f"first {count}"
        limit = f"{a.time_limit:g} s"
        row = {
            "boards": f"{a.size}, {which}",
            "time": limit,
            "ours": f"{mean_ours:.2f}",
            "theirs": f"{mean_them:.2f} ({mean_secs:.0f} s)",
            "ratio": f"{mean_ours / mean_them:.3f} (shorter on {shorter}, equal on {equal}; "
                     f"{min(ratios):.3f}-{max(ratios):.3f})",
            "manhattan": f"{manhattan:.3f}",
        }
        if peak:
            row["peak"] = f"{peak / 1024:.2f} GB" if peak >= 1024 else f"{peak:.0f} MB"
        shown = f"python3 bench/deepcubea.py {a.size} --first {a.first} --time-limit {a.time_limit:g} --threads {a.threads}"
        record.save("deepcubea", shown, [row],
                    f"DeepCubeA's test boards and answers in bench/deepcubea/; {a.threads} threads, one board "
                    f"at a time; databases cached: {', '.join(sets) or 'none'}",
                    key="boards", results=a.results)
        if a.results == ROOT / "bench" / "results":
            return record.tables()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs an `npuzzle bench` command and records its figures as data in bench/results/.

    python3 bench/record.py korf100 --set-name "7-8 + reflection (default)" --runs 5 -- \\
        target/release/npuzzle bench --set korf100 --threads 1

The command runs `--runs` times (with `--json` added, under `/usr/bin/time -v` where it is
installed, for the peak memory); the record gets the date, the machine (cores, memory,
processor), the command as given, the commit (with `-dirty` when the tree has changes) and
one row of figures: the solver, the databases (`--set-name`), the expanded nodes, the
searching and whole-process seconds (the range over the runs), the peak memory and whether
every answer was optimal. The row of the same command and set name is replaced (git keeps
the history); then docs/benchmarks.md is written again by tables.py.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def machine() -> str:
    """This machine in a few words: cores, memory, processor."""
    cores = os.cpu_count() or 1
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f", {round(int(line.split()[1]) / 1024 / 1024)} GiB"
    except OSError:
        pass
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = ", " + line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cores} cores{mem}{cpu}"


def commit() -> str:
    """The commit measured, `-dirty` when the tree has changes."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              check=False).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("-dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def run_once(command: list[str]) -> tuple[dict, float | None, float]:
    """One run: the summary line of `--json`, the peak memory in MB (None without
    /usr/bin/time) and the wall seconds."""
    timer = shutil.which("time", path="/usr/bin")
    full = ([timer, "-v"] if timer else []) + command
    start = datetime.datetime.now()
    out = subprocess.run(full, capture_output=True, text=True, check=False)
    wall = (datetime.datetime.now() - start).total_seconds()
    if out.returncode != 0:
        raise SystemExit(f"record.py: {' '.join(command)} exited {out.returncode}: {out.stderr.strip()[-500:]}")
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if not lines:
        raise SystemExit(f"record.py: expected JSON lines from {' '.join(command)}, found none")
    summary = json.loads(lines[-1])
    if "total_expanded" not in summary:
        raise SystemExit(f"record.py: expected a summary line with total_expanded, found {lines[-1][:200]}")
    peak = None
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
    if m:
        peak = int(m.group(1)) / 1024
    return summary, peak, wall


def span(values: list[float], unit: str, digits: int) -> str:
    lo, hi = min(values), max(values)
    if f"{lo:.{digits}f}" == f"{hi:.{digits}f}":
        return f"{lo:.{digits}f} {unit}"
    return f"{lo:.{digits}f}\u2013{hi:.{digits}f} {unit}"


def record(name: str, set_name: str, command: list[str], runs: int, results: Path) -> dict:
    if "--json" not in command:
        command = command + ["--json"]
    measured = [run_once(command) for _ in range(runs)]
    summaries = [m[0] for m in measured]
    expanded = {s["total_expanded"] for s in summaries}
    if len(expanded) != 1:
        raise SystemExit(f"record.py: the runs expanded different node counts: {sorted(expanded)}")
    s = summaries[-1]
    optimal = s["solved"] == s["instances"] and s.get("total_length") == s.get("total_reference")
    row = {
        "solver": "npuzzle",
        "set": set_name,
        "expanded": s["total_expanded"],
        "searching": span([x["total_seconds"] for x in summaries], "s", 3),
        "whole": span([m[2] for m in measured], "s", 2),
        "answers": f"all {s['instances']} optimal" if optimal
        else f"{s['solved']} of {s['instances']} solved, x{s.get('ratio')} the reference",
    }
    peaks = [m[1] for m in measured if m[1] is not None]
    if peaks:
        row["peak"] = f"{max(peaks):.0f} MB"
    shown = " ".join(c for c in command if c != "--json")
    shown = re.sub(r"^\S*/npuzzle\b", "npuzzle", shown)
    return save(name, shown, [row], f"{runs} runs", key="set", results=results)


def save(name: str, command: str, figures: list[dict], setup: str, key: str,
         note: str | None = None, results: Path = ROOT / "bench" / "results") -> dict:
    """Writes one measurement into bench/results/NAME.json: its date, machine, command and
    commit, `setup` (how it was run), `note` if any, and `figures` (rows keyed by the
    table's columns). The rows of an earlier record of the same command with the same
    `key` field are replaced; every other row stays with its own date and commit. The
    other benchmark scripts (dask-bench.py, judge-vs-seeds.sh) record through this."""
    entry = {
        "benchmark": name,
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "command": command,
        "commit": commit(),
        "setup": setup,
        "figures": figures,
    }
    if note:
        entry["note"] = note
    path = results / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    replaced = {f.get(key) for f in figures}
    # The rows this measurement replaces go from their record (a record left without rows
    # goes too); the other rows stay with their own dates and commits.
    kept = []
    for r in data["records"]:
        if r.get("command") == command:
            r = dict(r, figures=[f for f in r.get("figures", []) if f.get(key) not in replaced])
            if not r["figures"]:
                continue
        kept.append(r)
    data["records"] = [entry] + kept
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return entry


def tables() -> int:
    """Writes docs/benchmarks.md again from the results (bench/tables.py)."""
    return subprocess.run([sys.executable, str(ROOT / "bench" / "tables.py")], check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("benchmark", help="the results file's name (bench/results/NAME.json)")
    parser.add_argument("--set-name", required=True, help="the databases' name in the table")
    parser.add_argument("--runs", type=int, default=3, help="times to run the command [3]")
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "results",
                        help="the results folder [bench/results]")
    parser.add_argument("--no-tables", action="store_true", help="do not write docs/benchmarks.md")
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv and any(a in ("-h", "--help") for a in argv):
        parser.print_help()
        return 0
    if "--" not in argv:
        parser.error("expected -- then the npuzzle bench command, found no --")
    cut = argv.index("--")
    args = parser.parse_args(argv[:cut])
    command = argv[cut + 1:]
    if not command:
        parser.error("expected the command after --, found none")
    if not 1 <= args.runs <= 100:
        parser.error(f"--runs: expected 1 to 100, found {args.runs}")
    if not (args.results / f"{args.benchmark}.json").is_file():
        parser.error(f"expected {args.results / (args.benchmark + '.json')}, found no such file")
    entry = record(args.benchmark, args.set_name, command, args.runs, args.results)
    print(json.dumps(entry, ensure_ascii=False))
    return 0 if args.no_tables else tables()


if __name__ == "__main__":
    sys.exit(main())

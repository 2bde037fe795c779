#!/usr/bin/env bash
# Times `npuzzle judge hdu1043` against the published per-board A* (C++ -O2) on the same
# 5,000 random boards, alternating runs, and counts the seed's answers that are longer than
# ours (ours are shortest: checked against a BFS oracle in the tests).
# Usage: bench/judge-vs-seeds.sh SEED_PROGRAMS_DIR [--record]   (needs hyperfine, python3)
# With --record the figures go into bench/results/judge-hdu1043.json (through
# bench/record.py) and docs/benchmarks.md is written again.
set -euo pipefail
seeds=${1:?usage: judge-vs-seeds.sh DIR [--record]  (DIR built by ../shared/bench/seed-programs.sh)}
rec=${2:-}
if [ -n "$rec" ] && [ "$rec" != --record ]; then
  echo "judge-vs-seeds.sh: expected --record or nothing after DIR, found $rec" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -r "$tmp"' EXIT
python3 "$here/hdu1043-input.py" 5000 1043 > "$tmp/in.txt"
hyperfine --warmup 3 -r 20 --export-json "$tmp/times.json" \
  "target/release/npuzzle judge hdu1043 < $tmp/in.txt" \
  "$seeds/hdu_astar < $tmp/in.txt"
target/release/npuzzle judge hdu1043 < "$tmp/in.txt" > "$tmp/ours.txt"
"$seeds/hdu_astar" < "$tmp/in.txt" > "$tmp/seed.txt"
paste -d' ' "$tmp/ours.txt" "$tmp/seed.txt" | awk '
  $1 != "unsolvable" { n++; if (length($2) > length($1)) longer++ }
  END { printf "%d %d\n", n, longer }' > "$tmp/longer.txt"
read -r solvable longer < "$tmp/longer.txt"
echo "solvable boards: $solvable; seed answers longer than shortest: $longer"
/usr/bin/time -f "%M" -o "$tmp/ours.mem" target/release/npuzzle judge hdu1043 < "$tmp/in.txt" > /dev/null
/usr/bin/time -f "%M" -o "$tmp/seed.mem" "$seeds/hdu_astar" < "$tmp/in.txt" > /dev/null
echo "npuzzle peak memory: $(cat "$tmp/ours.mem") KB; seed A* peak memory: $(cat "$tmp/seed.mem") KB"
if [ -n "$rec" ]; then
  python3 - "$tmp" "$solvable" "$longer" <<'PY'
import json, sys
from pathlib import Path
sys.path.insert(0, "bench")
import record
tmp, solvable, longer = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
ours, seed = json.loads((tmp / "times.json").read_text())["results"]
def t(r):
    m, s = r["mean"], r["stddev"]
    return f"{m * 1e3:.1f} ms \u00b1 {s * 1e3:.1f} ms" if m < 1 else f"{m:.3f} s \u00b1 {s:.3f} s"
def mb(name):
    return f"{int((tmp / name).read_text().split()[-1]) / 1024:.1f} MB"
rows = [
    {"program": "npuzzle judge hdu1043", "time": t(ours), "peak": mb("ours.mem")},
    {"program": "C++ A* (seed program)", "time": t(seed), "vs": f"{seed['mean'] / ours['mean']:.0f}x",
     "peak": mb("seed.mem"), "longer": f"{longer:,} of {solvable:,} answers to solvable boards"},
]
record.save("judge-hdu1043", "bench/judge-vs-seeds.sh DIR", rows, "alternating runs with hyperfine",
            key="program")
sys.exit(record.tables())
PY
fi

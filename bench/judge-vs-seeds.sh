#!/usr/bin/env bash
# Times `npuzzle judge hdu1043` against the published per-board A* (C++ -O2) on the same
# 5,000 random boards, alternating runs, and counts the seed's answers that are longer than
# ours (ours are shortest: checked against a BFS oracle in the tests).
# Usage: bench/judge-vs-seeds.sh SEED_PROGRAMS_DIR     (needs hyperfine, python3)
set -euo pipefail
seeds=${1:?usage: judge-vs-seeds.sh DIR  (DIR built by ../shared/bench/seed-programs.sh)}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
cargo build --release --quiet
tmp=$(mktemp -d)
python3 "$here/hdu1043-input.py" 5000 1043 > "$tmp/in.txt"
hyperfine --warmup 3 -r 20 \
  "target/release/npuzzle judge hdu1043 < $tmp/in.txt" \
  "$seeds/hdu_astar < $tmp/in.txt"
target/release/npuzzle judge hdu1043 < "$tmp/in.txt" > "$tmp/ours.txt"
"$seeds/hdu_astar" < "$tmp/in.txt" > "$tmp/seed.txt"
paste -d' ' "$tmp/ours.txt" "$tmp/seed.txt" | awk '
  $1 != "unsolvable" { n++; if (length($2) > length($1)) longer++ }
  END { printf "solvable boards: %d; seed answers longer than shortest: %d\n", n, longer }'
/usr/bin/time -f "npuzzle peak memory: %M KB" target/release/npuzzle judge hdu1043 < "$tmp/in.txt" > /dev/null
/usr/bin/time -f "seed A* peak memory: %M KB" "$seeds/hdu_astar" < "$tmp/in.txt" > /dev/null
rm -r "$tmp"

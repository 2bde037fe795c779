#!/usr/bin/env bash
# The Python package's tests: a virtual environment (made once, under the target
# directory) with maturin, numpy, gymnasium and pytest; the package built into it; the
# CLI built for the tests to compare against; then pytest. Dask (and tqdm) go in for
# the cluster tests, which start a LocalCluster on 127.0.0.1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="${NPUZZLE_VENV:-$target/py-venv}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  echo "py: creating $venv"
  "$python" -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check "maturin>=1.5,<2" numpy gymnasium pytest "dask[array,distributed]" tqdm
# The CLI the faces are compared with, built as `cargo test` builds (optimized, with debug
# assertions; in target/debug like a plain build): unoptimized, iterative deepening on the
# hardest 3x3 board took 6 s and passed the test server's 10 s limit on a busy machine.
cargo build --locked -q --profile test -p npuzzle-cli
echo "py: building the package (maturin develop --release)"
# (With the fault-injection feature: the tests show that a panic is an exception.)
(cd "$here" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin develop --release -q --features fault-injection)
# The wheel as people install it (no test feature), for the test that installs it into a
# fresh virtual environment with no Rust toolchain on the PATH (tests/test_wheel.py).
echo "py: building the wheel (maturin build --release)"
rm -rf "$target/wheels"
(cd "$here" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" maturin build --release -q -o "$target/wheels")
# The tests never touch the user's cache: every face's default folders point into a
# fresh folder of the run's own, removed at the end.
cache="$(mktemp -d "${TMPDIR:-/tmp}/npuzzle-py-cache.XXXXXX")"
trap 'rm -rf "$cache"' EXIT
NPUZZLE_CACHE_DIR="$cache/cache" NPUZZLE_PDB_DIR="$cache/pdb" XDG_CACHE_HOME="$cache/xdg" \
  NPUZZLE_BIN="$target/debug/npuzzle" NPUZZLE_WHEELS="$target/wheels" "$venv/bin/python" -m pytest -q "$here/tests" "$@"

#!/usr/bin/env python3
"""DeepCubeA's published n-puzzle test boards as an `npuzzle bench` file, and our lengths
next to theirs.

DeepCubeA (Agostinelli et al. 2019) keeps its test boards in its public repository as
pickles (`data/puzzle48/test/data_0.pkl`: 500 48-puzzle boards; puzzle35 and puzzle24
likewise) and its answers in `results/puzzle48/output.txt`. Their goal is ours (tiles in
order, blank last), so `--goal` names it for `bench` (whose default goal is Korf's).

Usage:
  deepcubea-boards.py boards data_0.pkl [COUNT] > boards.txt
      one line per board, `id t0 t1 ...` (no optimum: bench measures against Manhattan)
  deepcubea-boards.py goal data_0.pkl
      the goal to give `npuzzle bench --goal`
  deepcubea-boards.py compare bench.log output.txt
      per board our length (from `npuzzle bench` output) against theirs, and the means

Reading the pickle needs numpy (the boards are numpy arrays); nothing of DeepCubeA's own
code is needed: its state class is read as a plain object.
"""
import math
import pickle
import re
import sys


class _State:
    """Stands for DeepCubeA's state class while unpickling: keeps whatever it holds."""

    def __setstate__(self, state):
        self.state = state


# What a test pickle may name besides its state class: numpy's arrays and their parts.
# Anything else is refused (a pickle names functions it calls while loading).
_NUMPY = {
    (m, n)
    for m in ("numpy.core.multiarray", "numpy._core.multiarray")
    for n in ("_reconstruct", "scalar")
} | {("numpy", "ndarray"), ("numpy", "dtype")}


class _Reader(pickle.Unpickler):
    def find_class(self, module, name):
        if name.endswith("State"):
            return _State
        if (module, name) in _NUMPY:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"refusing {module}.{name}: not a board nor a numpy array")


def _tiles(obj):
    """The tile list inside an unpickled state, wherever the pickle put it."""
    if hasattr(obj, "tolist"):
        return [int(t) for t in obj.tolist()]
    if isinstance(obj, _State):
        return _tiles(obj.state)
    if isinstance(obj, dict):
        if "tiles" in obj:
            return _tiles(obj["tiles"])
        return None
    if isinstance(obj, (tuple, list)):
        for part in obj:
            found = _tiles(part)
            if found is not None:
                return found
    return None


def boards(path):
    with open(path, "rb") as f:
        try:
            data = _Reader(f).load()
        except (pickle.UnpicklingError, EOFError, ImportError, AttributeError) as e:
            sys.exit(f"{path}: expected a pickle of DeepCubeA's test data, found one that cannot be read ({e})")
    if not isinstance(data, dict) or "states" not in data:
        sys.exit(f"{path}: expected a dict with the boards under 'states', found {type(data).__name__}")
    out = []
    for k, s in enumerate(data["states"]):
        t = _tiles(s)
        if t is None:
            sys.exit(f"{path}: expected tiles in state {k}, found none")
        side = math.isqrt(len(t))
        if side * side != len(t) or sorted(t) != list(range(len(t))):
            sys.exit(f"{path}: expected a square board of tiles 0..n-1 in state {k}, found {t}")
        out.append(t)
    return out


def lengths(path, pattern):
    with open(path) as f:
        return [int(m) for m in re.findall(pattern, f.read())]


def main(argv):
    if len(argv) >= 3 and argv[1] == "boards":
        count = None
        if len(argv) > 3:
            if not argv[3].isdigit():
                sys.exit(f"expected a whole number for COUNT, found {argv[3]!r}")
            count = int(argv[3])
        for k, t in enumerate(boards(argv[2])[:count]):
            print(k, " ".join(map(str, t)))
    elif len(argv) == 3 and argv[1] == "goal":
        n = len(boards(argv[2])[0])
        print(" ".join(map(str, list(range(1, n)) + [0])))
    elif len(argv) == 4 and argv[1] == "compare":
        ours = {}
        with open(argv[2]) as f:
            for line in f:
                m = re.match(r"\s*(\d+)\s+(\d+) moves", line)
                if m:
                    ours[int(m.group(1))] = int(m.group(2))
        theirs = lengths(argv[3], r"# Moves: (\d+)")
        both = [(k, ours[k], theirs[k]) for k in sorted(ours) if k < len(theirs)]
        if not both:
            sys.exit("expected boards in both files, found none in common")
        for k, a, b in both:
            ratio = f"{a / b:.3f}" if b else "-"
            print(f"{k:4} ours {a:4} theirs {b:4}  {ratio}")
        a = sum(x[1] for x in both) / len(both)
        b = sum(x[2] for x in both) / len(both)
        shorter = sum(x[1] < x[2] for x in both)
        equal = sum(x[1] == x[2] for x in both)
        print(
            f"{len(both)} boards: ours {a:.2f} moves, theirs {b:.2f} "
            f"({f'{a / b:.3f}' if b else '-'}); "
            f"ours shorter on {shorter}, equal on {equal}"
        )
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main(sys.argv)
    except OSError as e:
        sys.exit(f"cannot read {e.filename}: {e.strerror}")


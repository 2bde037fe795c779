"""Benchmarks of the Python package (figures in README, "npuzzle for Python").

    python crates/npuzzle-py/bench/bench.py [--pdb-dir DIR]

Batch distances of 1,000,000 random 3x3 boards; pattern-database estimates of 1,000,000
random 4x4 boards (7-8 databases from DIR, as `npuzzle pdb build --size 4x4 --pdb 7-8`
saves them); single-environment steps a second on 4x4, side by side with SPGym
(`pip install sliding-puzzles`) if it is installed, alternating; the vector environment's
board-steps a second.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import npuzzle


def best(f, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times), max(times)


def steps_per_second(env, n, actions):
    """The usual loop: step, and reset when an episode ends (both count)."""
    env.reset(seed=0)
    t = time.perf_counter()
    for i in range(n):
        _, _, terminated, truncated, _ = env.step(actions[i])
        if terminated or truncated:
            env.reset()
    return n / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdb-dir", default=os.environ.get("NPUZZLE_PDB_DIR"))
    args = ap.parse_args()

    b3 = npuzzle.scrambles("3x3", 1_000_000, seed=1)
    npuzzle.distances(b3[:10], "3x3")  # warm up
    lo, hi = best(lambda: npuzzle.distances(b3, "3x3"))
    print(f"distances, 1,000,000 random 3x3 (table built in the call): {lo:.3f}-{hi:.3f} s")

    if args.pdb_dir:
        pdbs = npuzzle.PatternDatabases.load(args.pdb_dir, "4x4", "7-8")
        b4 = npuzzle.scrambles("4x4", 1_000_000, seed=2)
        lo, hi = best(lambda: npuzzle.estimates(b4, "4x4", "pdb", pdbs=pdbs))
        print(f"pdb estimates (7-8), 1,000,000 random 4x4: {lo:.3f}-{hi:.3f} s")

    import gymnasium as gym

    n = 200_000
    actions = np.random.default_rng(0).integers(0, 4, size=n).tolist()
    ours = gym.make("npuzzle/SlidingPuzzle-v0", size="4x4")
    ours_raw = ours.unwrapped
    try:
        import sliding_puzzles

        spgym = sliding_puzzles.make(w=4, h=4)
    except ImportError:
        spgym = None
    for round_ in range(3):
        a = steps_per_second(ours, n, actions)
        a_raw = steps_per_second(ours_raw, n, actions)
        line = f"round {round_ + 1}: npuzzle {a:,.0f} steps/s (gym.make), {a_raw:,.0f} (unwrapped)"
        if spgym is not None:
            s = steps_per_second(spgym, n // 4, actions)
            line += f"; SPGym {s:,.0f} steps/s ({a / s:.1f}x, unwrapped {a_raw / s:.1f}x)"
        print(line)

    for num in (1024, 16384):
        vec = npuzzle.env.SlidingPuzzleVectorEnv(num_envs=num, size="4x4")
        vec.reset(seed=0)
        acts = np.random.default_rng(1).integers(0, 4, size=(50, num))
        t = time.perf_counter()
        for k in range(50):
            vec.step(acts[k])
        rate = 50 * num / (time.perf_counter() - t)
        print(f"vector env, {num} boards x 50 steps: {rate / 1e6:.1f} million board-steps/s")


if __name__ == "__main__":
    main()

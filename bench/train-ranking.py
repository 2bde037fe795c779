#!/usr/bin/env python3
"""Fits the anytime solver's learned ranking (npuzzle::search::ranking) to samples.

    python3 bench/train-ranking.py SAMPLES.txt [MORE.txt ...] -o ranking.bin \
        [--ridge 1000] [--lambda 0.3] [--held-out 0.25] [--bags 1 --bag-share 0.5 --seed 1]
        [--blend EARLIER.bin A B]

SAMPLES are files written by `cargo run --release -p npuzzle --example ranking_samples`.
The correction is fitted by ridge regression to each sample's label (the moves a plain
beam still took) less the databases' estimate, on three kinds of features: each tile's
(and the blank's) cell, each lookup's database entry (one weight per value), and the
estimate, the linear-conflict estimate, the Manhattan distance and the estimate's excess
over it (with the layer and a constant, fitted but not written: they are the same for a
whole layer). A quarter of the boards is held out and the fit's error on them printed.
With --bags N (more than 1), the boards are dealt into 16 shards at random (--seed) and the
weights are the mean of N fits, each on a random --bag-share of the shards: the beams find
fewer of a fit's chance errors to exploit in the mean of several. With --blend, the weights
written are A times EARLIER's (a ranking file for the same databases) plus B times the fit's:
a fit to other samples (other boards, labels from wider beams) added to an earlier one.
Needs numpy.
"""
import argparse
import struct
import sys

SLOTS = 64


def fail(msg):
    print(f"train-ranking.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read(paths):
    head, rows = None, []
    for fi, path in enumerate(paths):
        try:
            f = open(path)
        except OSError as e:
            fail(f"{path}: {e.strerror}")
        with f:
            for no, line in enumerate(f, 1):
                where = f"{path}:{no}"
                if line.startswith("# size "):
                    w = line.split()
                    try:
                        size = w[2]
                        lookups = int(w[4])
                        groups = [[int(t) for t in g.split(",")] for g in w[6:]]
                    except (IndexError, ValueError):
                        fail(f"{where}: expected '# size WxH lookups L groups T,T,... ...', found {line.strip()!r}")
                    h = (size, lookups, groups)
                    if head is not None and head != h:
                        fail(f"{where}: expected the databases of the files before, found other ones")
                    head = h
                    continue
                if line.startswith("#") or not line.strip():
                    continue
                if head is None:
                    fail(f"{where}: expected the header '# size ...' before the samples")
                parts = line.split("|")
                try:
                    a, v, c = parts
                    board, depth, label, lc, md = a.split()
                    if label == "-":
                        continue
                    n_cells = int(head[0].split("x")[0]) * int(head[0].split("x")[1])
                    entries = [int(x) for x in v.split()]
                    cells = [int(x) for x in c.split()]
                    ok = (len(entries) == head[1] * len(head[2]) and len(cells) == n_cells
                          and sorted(cells) == list(range(n_cells)))
                except ValueError:
                    ok = False
                if not ok:
                    fail(f"{where}: expected 'board depth label lc md | entries | cells' for "
                         f"{head[0]}, found {line.strip()[:80]!r}")
                rows.append(((fi, int(board)), int(depth), int(label), int(lc), int(md), entries, cells))
    if not rows:
        fail("expected labelled samples, found none")
    return head, rows


def header(size, lookups, groups):
    """A ranking file's bytes before its weights: magic, size, lookups and groups."""
    width, height = map(int, size.split("x"))
    head = b"NPZRANK1" + bytes([width, height, lookups, len(groups)])
    for g in groups:
        head += bytes([len(g)] + g)
    return head


def read_blend(spec, size, lookups, groups):
    """The A, B and weights (lambda left out) of --blend EARLIER A B, EARLIER checked to be
    a ranking file for the same databases."""
    path, a, b = spec
    try:
        a, b = float(a), float(b)
    except ValueError:
        fail(f"--blend: expected a file and two numbers, found {spec!r}")
    try:
        data = open(path, "rb").read()
    except OSError as e:
        fail(f"--blend {path}: {e.strerror}")
    head = header(size, lookups, groups)
    if not data.startswith(head) or (len(data) - len(head)) % 4:
        fail(f"--blend {path}: expected a ranking file for the samples' {size} databases, found "
             f"another file")
    floats = struct.unpack(f"<{(len(data) - len(head)) // 4}f", data[len(head):])
    return a, b, list(floats[1:])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("samples", nargs="+")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--ridge", type=float, default=1000.0)
    p.add_argument("--lambda", dest="lam", type=float, default=0.3)
    p.add_argument("--held-out", type=float, default=0.25)
    p.add_argument("--bags", type=int, default=1)
    p.add_argument("--bag-share", type=float, default=0.5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--blend", nargs=3, metavar=("EARLIER", "A", "B"))
    args = p.parse_args()
    if args.ridge < 0 or not 0 <= args.held_out < 1:
        fail("expected --ridge >= 0 and --held-out from 0 to below 1")
    if args.bags < 1 or not 0 < args.bag_share <= 1:
        fail(f"expected --bags of at least 1 and --bag-share above 0 and at most 1, found "
             f"{args.bags} and {args.bag_share}")
    try:
        import numpy as np
    except ImportError:
        fail("needs numpy (pip install numpy), found none for this Python")

    (size, lookups, groups), rows = read(args.samples)
    blend = None
    if args.blend:
        blend = read_blend(args.blend, size, lookups, groups)
    width, height = map(int, size.split("x"))
    n = width * height
    G = lookups * len(groups)
    E = np.array([r[5] for r in rows])
    C = np.array([r[6] for r in rows])
    depth = np.array([r[1] for r in rows], float)
    label = np.array([r[2] for r in rows], float)
    lc = np.array([r[3] for r in rows], float)
    md = np.array([r[4] for r in rows], float)
    k = len(groups)
    h = np.maximum(np.max([E[:, i * k:(i + 1) * k].sum(1) for i in range(lookups)], axis=0), lc)
    y = label - h
    m = len(rows)
    X = np.zeros((m, n * n + G * SLOTS + 6), np.float32)
    np.put_along_axis(X, C * n + np.arange(n)[None, :], 1.0, axis=1)
    np.put_along_axis(X, n * n + np.minimum(E, SLOTS - 1) + SLOTS * np.arange(G)[None, :], 1.0, axis=1)
    o = n * n + G * SLOTS
    X[:, o:o + 6] = np.stack([h, lc, md, h - md, depth, np.ones(m)], 1)
    boards = sorted({r[0] for r in rows})
    rng = np.random.default_rng(0)
    held = set(map(tuple, rng.permutation(boards)[: int(len(boards) * args.held_out)])) if args.held_out else set()
    test = np.array([r[0] in held for r in rows])

    def fit_all(mask):
        A = X[mask].astype(np.float64)
        AtA = A.T @ A
        AtA[np.diag_indices_from(AtA)] += args.ridge
        return np.linalg.solve(AtA, A.T @ y[mask])

    def fit_bagged(mask):
        # Each shard's normal equations once; a bag sums its shards' and solves.
        rng = np.random.default_rng(args.seed)
        mine = np.unique(board_of[mask])
        shards = min(16, len(mine))
        shard_of = np.full(len(boards), -1)
        shard_of[mine[rng.permutation(len(mine))]] = np.arange(len(mine)) % shards
        row_shard = shard_of[board_of]
        D = X.shape[1]
        AtA, Aty = np.zeros((shards, D, D)), np.zeros((shards, D))
        for s in range(shards):
            sel = mask & (row_shard == s)
            A = X[sel].astype(np.float64)
            AtA[s], Aty[s] = A.T @ A, A.T @ y[sel]
        take = max(1, int(round(shards * args.bag_share)))
        ws = []
        for _ in range(args.bags):
            bag = np.sort(rng.choice(shards, take, replace=False))
            M = AtA[bag].sum(0)
            M[np.diag_indices_from(M)] += args.ridge
            ws.append(np.linalg.solve(M, Aty[bag].sum(0)))
        return np.mean(ws, 0)

    index = {b: i for i, b in enumerate(boards)}
    board_of = np.array([index[r[0]] for r in rows])
    fit = fit_bagged if args.bags > 1 else fit_all

    if test.any():
        w = fit(~test)
        r = y[test] - X[test] @ w
        print(f"held-out boards {len(held)}: label less estimate, variance {y[test].var():.1f}, "
              f"left by the fit {r.var():.1f}")
    w = fit(np.ones(m, bool))
    bagged = f" (the mean of {args.bags} fits, each on {args.bag_share} of the boards)" if args.bags > 1 else ""
    print(f"fitted on {m} samples of {len(boards)} boards{bagged}")
    out = bytearray(header(size, lookups, groups))
    written = list(w[: n * n]) + list(w[n * n:o]) + list(w[o:o + 4])
    if blend is not None:
        a, b, earlier = blend
        if len(earlier) != len(written):
            fail(f"--blend: expected {len(written)} weights, found {len(earlier)}")
        # The fit's weights as a file holds them (single precision), then blended.
        fit32 = np.array(written, np.float32).astype(float)
        written = [a * e + b * f for e, f in zip(earlier, fit32)]
        print(f"blended: {a} x {args.blend[0]} + {b} x the fit")
    floats = [args.lam] + written
    out += struct.pack(f"<{len(floats)}f", *floats)
    try:
        with open(args.output, "wb") as f:
            f.write(out)
    except OSError as e:
        fail(f"{args.output}: {e.strerror}")
    print(f"wrote {args.output} ({len(out)} bytes, lambda {args.lam})")


if __name__ == "__main__":
    main()

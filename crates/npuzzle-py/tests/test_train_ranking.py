"""The script that fits the anytime solver's learned ranking (bench/train-ranking.py) to
samples of `examples/ranking_samples.rs`: the file it writes, and bad input refused."""

import struct
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "bench" / "train-ranking.py"
HEAD = "# npuzzle ranking samples\n# size 3x3 lookups 2 groups 1,2,3,4 5,6,7,8\n"


def _run(*args):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True
    )


def _samples(path, boards=8, per=40, seed=0, extra=""):
    """Samples on 3x3 whose label less estimate is a known linear function of the
    blank's cell (plus noise), so that the fit has something to find."""
    rng = np.random.default_rng(seed)
    lines = [HEAD]
    for b in range(1, boards + 1):
        for d in range(1, per + 1):
            cells = rng.permutation(9)
            entries = rng.integers(0, 12, 4)
            lc = int(rng.integers(0, 10))
            md = int(rng.integers(0, lc + 1))
            h = max(entries[:2].sum(), entries[2:].sum(), lc)
            blank = int(np.where(cells == 0)[0][0])
            label = h + 3 * blank + int(rng.integers(0, 2))
            e = " ".join(map(str, entries))
            c = " ".join(map(str, cells))
            lines.append(f"{b} {d} {label} {lc} {md} | {e} | {c}\n")
    lines.append("1 99 - 3 3 | 1 1 1 1 | 0 1 2 3 4 5 6 7 8\n")
    path.write_text("".join(lines) + extra)


def test_the_ranking_file_holds_the_fit(tmp_path):
    src, out = tmp_path / "s.txt", tmp_path / "r.bin"
    _samples(src)
    r = _run(src, "-o", out, "--ridge", "1", "--lambda", "0.25")
    assert r.returncode == 0, r.stderr
    assert "fitted on 320 samples of 8 boards" in r.stdout
    b = out.read_bytes()
    assert b[:8] == b"NPZRANK1"
    assert list(b[8:12]) == [3, 3, 2, 2]
    assert list(b[12:22]) == [4, 1, 2, 3, 4, 4, 5, 6, 7, 8]
    floats = struct.unpack(f"<{(len(b) - 22) // 4}f", b[22:])
    assert len(floats) == 1 + 81 + 4 * 64 + 4 and (len(b) - 22) % 4 == 0
    assert floats[0] == 0.25
    # The blank's weights (tile 0, cells 0..8) rise by about 3 a cell, as the labels do.
    blank = np.array(floats[1:10])
    steps = np.diff(blank)
    assert np.all(steps > 2.0) and np.all(steps < 4.0), blank


def test_bagged_fits_are_averaged(tmp_path):
    """--bags: the mean of fits on random shares of the boards, reproducible by its seed,
    still finding what the labels hold."""
    src = tmp_path / "s.txt"
    _samples(src, boards=16)

    def fit(name, *extra):
        out = tmp_path / name
        r = _run(src, "-o", out, "--ridge", "1", *extra)
        assert r.returncode == 0, r.stderr
        b = out.read_bytes()
        return r.stdout, np.array(struct.unpack(f"<{(len(b) - 22) // 4}f", b[22:]))

    _, whole = fit("whole.bin")
    said, bagged = fit("bagged.bin", "--bags", "4", "--bag-share", "0.5", "--seed", "3")
    assert "the mean of 4 fits, each on 0.5 of the boards" in said
    _, again = fit("again.bin", "--bags", "4", "--bag-share", "0.5", "--seed", "3")
    _, other = fit("other.bin", "--bags", "4", "--bag-share", "0.5", "--seed", "4")
    assert np.array_equal(bagged, again)
    assert not np.array_equal(bagged, other) and not np.array_equal(bagged, whole)
    steps = np.diff(bagged[1:10])
    assert np.all(steps > 2.0) and np.all(steps < 4.0), bagged[1:10]
    for bad in (["--bags", "0"], ["--bag-share", "0"], ["--bag-share", "1.5"]):
        r = _run(src, "-o", tmp_path / "r.bin", *bad)
        assert r.returncode == 2 and "--bags" in r.stderr, r.stderr


def test_bad_samples_and_arguments_are_refused_with_the_place(tmp_path):
    src = tmp_path / "s.txt"
    _samples(src, boards=2, per=3, extra="2 9 40 3 3 | 1 1 1 | 0 1 2 3 4 5 6 7 8\n")
    r = _run(src, "-o", tmp_path / "r.bin")
    assert r.returncode == 2
    assert f"{src}:10" in r.stderr and "expected" in r.stderr
    src.write_text(HEAD + "1 1 40 3 3 | 1 1 1 1 | 0 1 2 3 4 5 6 7 7\n")
    r = _run(src, "-o", tmp_path / "r.bin")
    assert r.returncode == 2 and f"{src}:3" in r.stderr
    src.write_text("1 1 40 3 3 | 1 1 1 1 | 0 1 2 3 4 5 6 7 8\n")
    r = _run(src, "-o", tmp_path / "r.bin")
    assert r.returncode == 2 and "header" in r.stderr
    src.write_text(HEAD)
    r = _run(src, "-o", tmp_path / "r.bin")
    assert r.returncode == 2 and "found none" in r.stderr
    r = _run(tmp_path / "missing.txt", "-o", tmp_path / "r.bin")
    assert r.returncode == 2 and "missing.txt" in r.stderr
    _samples(src, boards=2, per=3)
    r = _run(src, "-o", tmp_path / "r.bin", "--held-out", "1")
    assert r.returncode == 2 and "--held-out" in r.stderr
    r = _run(src, "-o", tmp_path / "no-such-dir" / "r.bin")
    assert r.returncode == 2 and "no-such-dir" in r.stderr


def test_without_numpy_it_says_so(tmp_path):
    """A Python without numpy: one line saying what is missing, no traceback."""
    _samples(tmp_path / "s.txt")
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "numpy.py").write_text("raise ImportError('no numpy here')\n")
    r = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "s.txt"), "-o", str(tmp_path / "r.bin")],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path / "fake")},
    )
    assert r.returncode == 2
    assert "needs numpy" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not (tmp_path / "r.bin").exists()


def test_a_blend_adds_the_earlier_file_to_the_fit(tmp_path):
    """--blend EARLIER A B: A times the earlier file's weights plus B times the fit's, the
    lambda given; a file for other databases or a bad number is refused."""
    src, other = tmp_path / "s.txt", tmp_path / "o.txt"
    _samples(src, seed=1)
    _samples(other, seed=2)

    def weights(path):
        b = path.read_bytes()
        f = struct.unpack(f"<{(len(b) - 22) // 4}f", b[22:])
        return f[0], np.array(f[1:])

    early, fit, blend = tmp_path / "early.bin", tmp_path / "fit.bin", tmp_path / "blend.bin"
    assert _run(other, "-o", early, "--ridge", "1").returncode == 0
    assert _run(src, "-o", fit, "--ridge", "1").returncode == 0
    r = _run(src, "-o", blend, "--ridge", "1", "--lambda", "0.4", "--blend", early, "0.5", "0.8")
    assert r.returncode == 0, r.stderr
    assert "blended: 0.5 x" in r.stdout
    lam, w = weights(blend)
    assert lam == np.float32(0.4)
    expect = 0.5 * weights(early)[1] + 0.8 * weights(fit)[1]
    assert np.allclose(w, expect, rtol=1e-6, atol=1e-6)
    assert not np.allclose(w, weights(fit)[1])
    # A ranking for other databases (a 6x6 header), a samples file, a bad number.
    foreign = tmp_path / "foreign.bin"
    foreign.write_bytes(b"NPZRANK1" + bytes([6, 6, 2, 2]) + early.read_bytes()[12:])
    for bad in ([foreign, "1", "1"], [src, "1", "1"], [early, "half", "1"]):
        r = _run(src, "-o", tmp_path / "r.bin", "--blend", *bad)
        assert r.returncode == 2 and "--blend" in r.stderr, r.stderr
    r = _run(src, "-o", tmp_path / "r.bin", "--blend", tmp_path / "missing.bin", "1", "1")
    assert r.returncode == 2 and "missing.bin" in r.stderr

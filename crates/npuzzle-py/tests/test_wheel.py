"""The wheel as people install it: into a fresh virtual environment with no Rust toolchain
on the PATH (no cargo, no rustc), it imports and solves. ``test.sh`` builds the wheel
(``maturin build --release``) and names its folder in ``NPUZZLE_WHEELS``."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import venv

import pytest


def test_the_wheel_installs_and_solves_without_a_rust_toolchain(tmp_path):
    folder = os.environ.get("NPUZZLE_WHEELS")
    if not folder:
        pytest.skip("NPUZZLE_WHEELS names no folder of wheels (test.sh builds one)")
    wheels = sorted(glob.glob(os.path.join(folder, "npuzzle-*.whl")))
    assert wheels, f"no wheel in {folder}"
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = str(env_dir / "bin" / "python")
    # A PATH without the folders that hold cargo and rustc.
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not any(os.path.exists(os.path.join(d, t)) for t in ("cargo", "rustc"))]
    env = dict(os.environ, PATH=os.pathsep.join(dirs + [str(env_dir / "bin")]))
    env.pop("VIRTUAL_ENV", None)
    assert shutil.which("cargo", path=env["PATH"]) is None
    out = subprocess.run([python, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheels[-1]],
                         env=env, capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr
    script = ("import npuzzle\n"
              "s = npuzzle.solve('8 1 3/4 0 2/7 6 5')\n"
              "print(s.length, s.optimal, npuzzle.__version__)\n")
    out = subprocess.run([python, "-c", script], env=env, capture_output=True, text=True,
                         timeout=120, check=False, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    length, optimal, _ = out.stdout.split()
    assert (length, optimal) == ("14", "True"), out.stdout

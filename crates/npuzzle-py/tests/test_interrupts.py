"""Ctrl-C stops long calls: each runs work that would take far longer than the test waits
(hours), in a Python process of its own, which gets SIGINT once the call is under way and
must end with KeyboardInterrupt raised by that call (its line in the traceback)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

CALLS = {
    "distances": (
        "import numpy as np\n"
        "boards = npuzzle.scrambles('4x4', 20000, seed=1)\n",
        "npuzzle.distances(boards, '4x4', threads=1)",
    ),
    "build": (
        "import tempfile\n",
        "npuzzle.PatternDatabases.build('4x4', '7-8', directory=tempfile.mkdtemp(), threads=1)",
    ),
    "beams": (
        "board = npuzzle.scramble('16x16', seed=2)\n",
        "npuzzle.solve(board, time_limit=3600, threads=1)",
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_stops_a_long_call(name, tmp_path):
    setup, call = CALLS[name]
    script = (
        "import sys\n"
        "import npuzzle\n"
        f"{setup}"
        "print('calling', flush=True)\n"
        f"{call}\n"
        "print('finished', flush=True)\n"
    )
    env = dict(os.environ, NPUZZLE_PDB_DIR=str(tmp_path), NPUZZLE_CACHE_DIR=str(tmp_path))
    path = tmp_path / "call.py"
    path.write_text(script)
    # Ctrl-C at its default in the child, as in a terminal's foreground process (a suite
    # started in the background, `cmd &` or nohup, passes SIGINT on ignored, and Python
    # then installs no handler for it).
    p = subprocess.Popen(
        [sys.executable, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert p.stdout.readline().strip() == "calling"
    # The call is under way a moment after it is announced (the work it was given takes
    # hours); the signal is sent then, and again should the first come too early.
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        pytest.fail(f"{name}: still running two minutes after Ctrl-C\n{err}")
    assert "finished" not in out, (name, out)
    assert p.returncode != 0 and "KeyboardInterrupt" in err, (name, p.returncode, err)
    # Raised by the call itself: the traceback shows its line.
    assert call in err, (name, err)

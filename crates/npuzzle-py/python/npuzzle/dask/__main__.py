"""``python -m npuzzle.dask``: the command (see :func:`npuzzle.dask._command.main`)."""

import sys

from npuzzle.dask._command import main

sys.exit(main())

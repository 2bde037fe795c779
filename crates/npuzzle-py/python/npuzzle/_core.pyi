"""Type stubs of the extension module (the functions re-exported by ``npuzzle``)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

BoardLike = Union[str, Sequence[int], npt.NDArray[np.integer]]

__version__: str

def preferred_sets(size: str) -> list[str]:
    """The sets of pattern databases auto takes for boards of ``size``, best first."""

def parse_board(board: BoardLike, size: Optional[str] = None) -> Tuple[list[int], str]:
    """Tiles (0 the blank) and size ``"WxH"`` of a board."""

def format_board(board: BoardLike, size: Optional[str] = None, grid: bool = False) -> str:
    """The board on one line, or as grid lines."""

def is_solvable(board: BoardLike, goal: Optional[BoardLike] = None, size: Optional[str] = None) -> bool:
    """Whether the board can reach the goal."""

def apply(board: BoardLike, moves: str, notation: str = "tile", size: Optional[str] = None) -> str:
    """The board after the moves; ValueError names the first illegal one."""

def verify(
    board: BoardLike,
    moves: str,
    goal: Optional[BoardLike] = None,
    notation: str = "tile",
    size: Optional[str] = None,
) -> bool:
    """Whether the moves take the board to the goal."""

def convert_moves(
    moves: str, board: BoardLike, to: str, notation: str = "tile", size: Optional[str] = None
) -> str:
    """The moves rewritten in another notation (tile, blank, tiles)."""

def scramble(
    size: str, seed: Optional[int] = None, moves: Optional[int] = None, goal: Optional[BoardLike] = None
) -> str:
    """One uniform scramble (or a random walk of ``moves`` moves)."""

def scrambles(
    size: str,
    count: int,
    seed: Optional[int] = None,
    walk: Optional[int] = None,
    goal: Optional[BoardLike] = None,
) -> npt.NDArray[np.uint8]:
    """``count`` scrambles as a ``(count, cells)`` uint8 array."""

class Solution:
    """One board's answer: the fields of ``npuzzle solve --json``."""

    board: str
    solvable: bool
    moves: Optional[str]
    length: Optional[int]
    optimal: Optional[bool]
    lower_bound: Optional[int]
    weight: Optional[float]
    metric: str
    notation: str
    algorithm: str
    heuristic: Optional[str]
    expanded: int
    generated: int
    peak_stored: int
    seconds: float
    solutions: Optional[List[str]]
    def to_json(self) -> str:
        """The JSON object ``npuzzle solve --json`` prints."""

class PatternDatabases:
    """Pattern databases for one goal, shared by the calls that take ``pdbs=``."""

    goal: str
    partition: str
    @staticmethod
    def build(
        size: str = "4x4",
        partition: str = "5-5-5",
        goal: Optional[BoardLike] = None,
        directory: Optional[Union[str, PathLike[str]]] = None,
        threads: int = 0,
        zero_aware: bool = False,
    ) -> PatternDatabases:
        """Builds the databases (and saves them in ``directory`` if given); zero-aware
        ones (up to 25 cells) give larger estimates at four times the memory."""
    @staticmethod
    def load(
        directory: Optional[Union[str, PathLike[str]]] = None,
        size: str = "4x4",
        partition: str = "7-8",
        goal: Optional[BoardLike] = None,
        load: str = "auto",
    ) -> PatternDatabases:
        """Loads databases saved by the CLI or by ``build`` (``load``: map, read or auto);
        a group's zero-aware file is taken where there is one."""
    def estimate(self, board: BoardLike) -> int:
        """The additive estimate of one board."""

def solve(
    board: BoardLike,
    goal: Optional[BoardLike] = None,
    algorithm: str = "auto",
    heuristic: Optional[str] = None,
    weight: Optional[float] = None,
    time_limit: Optional[float] = None,
    size: Optional[str] = None,
    notation: str = "tile",
    metric: str = "stm",
    pdbs: Optional[PatternDatabases] = None,
    solutions: Optional[int] = None,
    progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
    threads: int = 0,
    beam_width: Optional[int] = None,
    *,
    exact: bool = False,
    pdb: Optional[str] = None,
    max_memory: Union[int, str, None] = None,
) -> Solution:
    """Solves one board (TimeoutError when a named algorithm runs out of time; ValueError
    when a search needs more memory than max_memory allows: bytes, or a size such as
    "4G")."""

def _solution(
    board: str,
    solvable: bool,
    length: Optional[int],
    optimal: Optional[bool],
    weight: Optional[float],
    lower_bound: Optional[int],
    moves: Optional[str],
    names: Tuple[str, str, str],
    heuristic: Optional[str],
    counts: Tuple[int, int, int, float],
    solutions: Optional[List[str]],
) -> Solution: ...
def _split_bound(
    board: BoardLike,
    pdbs: PatternDatabases,
    beyond: Optional[int] = None,
    goal: Optional[BoardLike] = None,
    size: Optional[str] = None,
    first: bool = False,
) -> int: ...
def _pass_frontier(
    board: BoardLike,
    pdbs: PatternDatabases,
    bound: int,
    min_paths: int,
    goal: Optional[BoardLike] = None,
    size: Optional[str] = None,
) -> Tuple[List[str], Optional[str], Optional[int], int, int]: ...
def _pass_subtrees(
    board: BoardLike,
    pdbs: PatternDatabases,
    bound: int,
    paths: List[str],
    goal: Optional[BoardLike] = None,
    size: Optional[str] = None,
    time_limit: Optional[float] = None,
) -> Tuple[Optional[Tuple[int, str]], Optional[int], int, int]: ...
def _split_solution(
    board: BoardLike,
    pdbs: PatternDatabases,
    moves: str,
    expanded: int,
    generated: int,
    seconds: float,
    goal: Optional[BoardLike] = None,
    size: Optional[str] = None,
    notation: str = "tile",
) -> Solution: ...
def _distances(boards: Any, size: str, goal: Any, pdbs: Any, threads: int) -> npt.NDArray[np.int32]: ...
def _estimates(boards: Any, size: str, heuristic: str, goal: Any, pdbs: Any, threads: int) -> npt.NDArray[np.int32]: ...
def _solvable(boards: Any, size: str, goal: Any, threads: int) -> npt.NDArray[np.bool_]: ...

class _Puzzle:
    def __init__(self, size: str, walk: Optional[int] = None, goal: Optional[BoardLike] = None) -> None: ...
    def reset(self, seed: int) -> npt.NDArray[np.uint8]: ...
    def set_board(self, board: BoardLike) -> npt.NDArray[np.uint8]: ...
    def step(self, a: int) -> Tuple[npt.NDArray[np.uint8], float, bool]: ...
    def board(self) -> str: ...
    def grid(self) -> str: ...
    def legal(self) -> list[int]: ...

class _VecPuzzle:
    def __init__(self, num: int, size: str, walk: Optional[int] = None, goal: Optional[BoardLike] = None) -> None: ...
    def reset(self, seed: int) -> npt.NDArray[np.uint8]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...

"""Gymnasium environments: one sliding puzzle, and N of them stepped in one Rust call.

Registered as ``npuzzle/SlidingPuzzle-v0`` when gymnasium is installed::

    import gymnasium as gym
    import npuzzle  # registers the environment
    env = gym.make("npuzzle/SlidingPuzzle-v0", size="4x4", max_episode_steps=200)
    vec = gym.make_vec("npuzzle/SlidingPuzzle-v0", num_envs=1024, size="3x3",
                       vectorization_mode="vector_entry_point")

Observation: the tiles, cell by cell (0 the blank), uint8. Actions: 0 up, 1 down, 2 left,
3 right, the way a tile moves into the gap (an action with no tile to move leaves the
board as it is). Reward -1 per step; terminated at the goal. Scrambles are uniform over
the positions that can reach the goal, or random walks of ``walk`` moves.
"""

from __future__ import annotations

from typing import Any, Optional

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _core


def _cells(size: str) -> int:
    tiles, _ = _core.parse_board(_core.scramble(size, seed=0))
    return len(tiles)


def _action(a) -> int:
    """An action as Gymnasium's ``Discrete(4)`` holds it: a whole number (Python's or
    NumPy's), never a float or a string that would be rounded or read."""
    if isinstance(a, np.ndarray) and a.shape == ():
        a = a[()]
    if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)):
        return int(a)
    raise ValueError(f"action: expected an integer 0 to 3, found {a!r}")


class SlidingPuzzleEnv(gym.Env):
    """One W x H sliding puzzle.

    Args:
        size: ``"WxH"``, 2x2 to 16x16.
        walk: scramble by a random walk of this many moves instead of uniformly.
        goal: the goal board (default: tiles in order, blank last).
        optimal_info: put the optimal distance in ``info["optimal_distance"]`` at reset
            and after each step, where the search proves it (cheap on 3x3, needs ``pdbs``
            on 4x4); where it cannot (larger boards), ``info["distance_bounds"]`` holds the
            proven lower bound and the length found instead, and no optimal distance.
        pdbs: ``npuzzle.PatternDatabases`` for the goal, for ``optimal_info`` on 4x4.
        render_mode: ``"ansi"`` (render returns the grid) or ``"human"`` (prints it).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        size: str = "4x4",
        walk: Optional[int] = None,
        goal: Any = None,
        optimal_info: bool = False,
        pdbs: Optional[_core.PatternDatabases] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected ansi or human, found {render_mode!r}")
        self._puzzle = _core._Puzzle(size, walk, goal)
        self._size = size
        self._goal = goal
        self._pdbs = pdbs
        self._optimal_info = optimal_info
        n = _cells(size)
        self.observation_space = spaces.Box(0, n - 1, shape=(n,), dtype=np.uint8)
        self.action_space = spaces.Discrete(4)
        self.render_mode = render_mode

    def _info(self) -> dict:
        if not self._optimal_info:
            return {}
        board = self._puzzle.board()
        s = _core.solve(board, goal=self._goal, pdbs=self._pdbs, size=self._size)
        # Only a proven length is called optimal.
        if s.optimal:
            return {"optimal_distance": s.length}
        return {"distance_bounds": (s.lower_bound, s.length)}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        obs = self._puzzle.reset(int(self.np_random.integers(0, 2**63 - 1)))
        if options and "board" in options:
            obs = self._puzzle.set_board(options["board"])
        if self.render_mode == "human":
            self.render()
        return obs, self._info()

    def step(self, action):
        obs, reward, terminated = self._puzzle.step(_action(action))
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, self._info() if self._optimal_info else {}

    def render(self):
        grid = self._puzzle.grid()
        if self.render_mode == "human":
            print(grid, end="\n\n")
            return None
        return grid

    def action_masks(self) -> np.ndarray:
        """Which of the four actions move a tile."""
        m = np.zeros(4, dtype=bool)
        m[self._puzzle.legal()] = True
        return m


class SlidingPuzzleVectorEnv(VectorEnv):
    """``num_envs`` sliding puzzles stepped together in one Rust call.

    An environment that reaches its goal is reset by its next step (Gymnasium's
    next-step autoreset: that step's action is ignored and its reward is 0).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 8,
        size: str = "4x4",
        walk: Optional[int] = None,
        goal: Any = None,
        render_mode: Optional[str] = None,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs: expected at least 1, found {num_envs}")
        self._vec = _core._VecPuzzle(num_envs, size, walk, goal)
        n = _cells(size)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0, n - 1, shape=(n,), dtype=np.uint8)
        self.single_action_space = spaces.Discrete(4)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = render_mode
        self._truncated = np.zeros(num_envs, dtype=bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            self._np_random, _ = gym.utils.seeding.np_random(seed)
        obs = self._vec.reset(int(self.np_random.integers(0, 2**63 - 1)))
        return obs, {}

    def step(self, actions):
        a = np.asarray(actions)
        if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions: expected integers 0 to 3, found an array of {a.dtype}")
        obs, rewards, terminated = self._vec.step(a.astype(np.int64))
        return obs, rewards, terminated, self._truncated.copy(), {}

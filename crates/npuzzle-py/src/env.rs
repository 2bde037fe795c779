//! The Gymnasium environments' Rust side: one board (`_Puzzle`) and many at once (`_VecPuzzle`).

use super::*;

/// The direction a Gymnasium action names: 0 up, 1 down, 2 left, 3 right (the way the
/// tile moves).
pub(crate) fn action(a: i64) -> Option<Direction> {
    usize::try_from(a)
        .ok()
        .and_then(|i| Direction::ALL.get(i).copied())
}

/// A scrambled board: uniform, or a walk of `walk` moves.
pub(crate) fn draw(goal: &Board, walk_len: Option<usize>, rng: &mut Rng) -> Board {
    loop {
        let b = match walk_len {
            Some(k) => {
                npuzzle::scramble::walk_board(goal, k, rng).expect("checked at construction")
            }
            None => uniform(goal, rng),
        };
        // A scramble that is already solved would end an episode before its first step.
        if &b != goal || goal.size().cells() <= 2 {
            return b;
        }
    }
}

/// A walk length from Python: a whole number from 0 to the library's longest walk.
pub(crate) fn walk_arg(walk: Option<i128>) -> PyResult<Option<usize>> {
    let walk: Option<usize> = whole_or_none("walk", walk)?;
    if let Some(k) = walk {
        npuzzle::scramble::check_walk(k).map_err(|e| value_error(format!("walk: {e}")))?;
    }
    Ok(walk)
}

/// The single environment's state, stepped in Rust (the Python class wraps it).
#[pyclass(module = "npuzzle")]
pub(crate) struct _Puzzle {
    goal: Board,
    board: Board,
    walk: Option<usize>,
}

#[pymethods]
impl _Puzzle {
    #[new]
    #[pyo3(signature = (size, walk=None, goal=None))]
    fn new(size: &str, walk: Option<i128>, goal: Option<&Bound<'_, PyAny>>) -> PyResult<_Puzzle> {
        let walk = walk_arg(walk)?;
        let g = goal_arg(goal, parse_size(size)?)?;
        Ok(_Puzzle {
            board: g.clone(),
            goal: g,
            walk,
        })
    }

    /// A new scramble from `seed`; its tiles.
    fn reset<'py>(&mut self, py: Python<'py>, seed: i128) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let seed = whole("seed", seed)?;
        self.board = draw(&self.goal, self.walk, &mut Rng::new(seed));
        Ok(PyArray1::from_slice(py, self.board.cells()))
    }

    /// Sets the board (for `options={"board": ...}`).
    fn set_board<'py>(
        &mut self,
        py: Python<'py>,
        board: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let s = self.goal.size().to_string();
        let b = board_arg(board, Some(&s), "board")?;
        // The library's one size check, in Python's words.
        if npuzzle::parity::check_sizes(&b, &self.goal).is_err() {
            return Err(value_error(format!(
                "board: expected a {} board, found a {} one",
                self.goal.size(),
                b.size()
            )));
        }
        if !npuzzle::is_solvable(&b, &self.goal).unwrap_or(false) {
            return Err(value_error(format!(
                "board: expected a board that can reach the goal {}, found {b}, which cannot \
                 (its episode would never end)",
                self.goal
            )));
        }
        self.board = b;
        Ok(PyArray1::from_slice(py, self.board.cells()))
    }

    /// One action: (tiles, reward, terminated). A move off the board leaves it as it is.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        a: i64,
    ) -> PyResult<(Bound<'py, PyArray1<u8>>, f64, bool)> {
        let d =
            action(a).ok_or_else(|| value_error(format!("action: expected 0 to 3, found {a}")))?;
        let _ = self.board.apply(d);
        Ok((
            PyArray1::from_slice(py, self.board.cells()),
            -1.0,
            self.board == self.goal,
        ))
    }

    /// The board, one line.
    fn board(&self) -> String {
        self.board.to_string()
    }

    /// The board as grid lines.
    fn grid(&self) -> String {
        self.board.to_grid()
    }

    /// The actions that move a tile.
    fn legal(&self) -> Vec<i64> {
        Direction::ALL
            .iter()
            .enumerate()
            .filter(|(_, &d)| self.board.mover(d).is_some())
            .map(|(i, _)| i as i64)
            .collect()
    }
}

/// N environments stepped in one call (the vector environment wraps it). An environment
/// that reached its goal is reset by its next step (Gymnasium's next-step autoreset).
#[pyclass(module = "npuzzle")]
pub(crate) struct _VecPuzzle {
    goal: Board,
    boards: Vec<Board>,
    done: Vec<bool>,
    walk: Option<usize>,
    rng: Rng,
}

#[pymethods]
impl _VecPuzzle {
    #[new]
    #[pyo3(signature = (num, size, walk=None, goal=None))]
    fn new(
        num: i128,
        size: &str,
        walk: Option<i128>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<_VecPuzzle> {
        let num: usize = whole("num", num)?;
        let walk = walk_arg(walk)?;
        let size = parse_size(size)?;
        let g = goal_arg(goal, size)?;
        let mut boards = Vec::new();
        boards
            .try_reserve_exact(num)
            .map_err(|_| too_many("num", num, size))?;
        boards.resize(num, g.clone());
        Ok(_VecPuzzle {
            boards,
            done: vec![false; num],
            goal: g,
            walk,
            rng: Rng::new(0),
        })
    }

    /// New scrambles for every environment from `seed`; their tiles `(N, cells)`.
    fn reset<'py>(&mut self, py: Python<'py>, seed: i128) -> PyResult<Bound<'py, PyArray2<u8>>> {
        self.rng = Rng::new(whole("seed", seed)?);
        for (b, d) in self.boards.iter_mut().zip(&mut self.done) {
            *b = draw(&self.goal, self.walk, &mut self.rng);
            *d = false;
        }
        self.observe(py)
    }

    /// One action per environment: (tiles, rewards, terminated).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<u8>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let acts = actions.as_slice().map_err(value_error)?;
        if acts.len() != self.boards.len() {
            return Err(value_error(format!(
                "actions: expected {} (one per environment), found {}",
                self.boards.len(),
                acts.len()
            )));
        }
        let mut rewards = vec![-1.0f32; acts.len()];
        let mut term = vec![false; acts.len()];
        for (i, &a) in acts.iter().enumerate() {
            if self.done[i] {
                self.boards[i] = draw(&self.goal, self.walk, &mut self.rng);
                self.done[i] = false;
                rewards[i] = 0.0;
                continue;
            }
            let d = action(a)
                .ok_or_else(|| value_error(format!("actions[{i}]: expected 0 to 3, found {a}")))?;
            let _ = self.boards[i].apply(d);
            if self.boards[i] == self.goal {
                term[i] = true;
                self.done[i] = true;
            }
        }
        Ok((
            self.observe(py)?,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, term),
        ))
    }
}

impl _VecPuzzle {
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let cells = self.goal.size().cells();
        let mut flat = Vec::with_capacity(self.boards.len() * cells);
        for b in &self.boards {
            flat.extend_from_slice(b.cells());
        }
        PyArray1::from_vec(py, flat).reshape([self.boards.len(), cells])
    }
}

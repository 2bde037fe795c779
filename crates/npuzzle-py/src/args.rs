//! Arguments as Python gives them: boards as text or tiles, sizes, goals, notations, partitions.

use super::*;

pub(crate) fn parse_size(size: &str) -> PyResult<Size> {
    size.parse::<Size>()
        .map_err(|e| value_error(format!("size: {e}")))
}

/// A board from text (any form the CLI reads) or a sequence of tiles (0 the blank) with
/// `size` (a square board's size can be left out).
pub(crate) fn board_arg(
    board: &Bound<'_, PyAny>,
    size: Option<&str>,
    what: &str,
) -> PyResult<Board> {
    let size = size.map(parse_size).transpose()?;
    if let Ok(text) = board.extract::<String>() {
        return Board::parse(&text, size).map_err(|e| value_error(format!("{what}: {e}")));
    }
    let cells: Vec<i64> = board.extract().map_err(|_| {
        value_error(format!(
            "{what}: expected a board as text (\"8 1 3/4 0 2/7 6 5\") or a sequence of tiles, \
             found {}",
            board
                .get_type()
                .name()
                .map_or("?".into(), |n| n.to_string())
        ))
    })?;
    let size = match size {
        Some(s) => s,
        None => {
            let side = (cells.len() as f64).sqrt().round() as usize;
            if side * side != cells.len() {
                return Err(value_error(format!(
                    "{what}: expected size=\"WxH\" for {} tiles, which make no square",
                    cells.len()
                )));
            }
            Size::square(side).map_err(|e| value_error(format!("{what}: {e}")))?
        }
    };
    let cells: Vec<u8> = cells
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            u8::try_from(t).map_err(|_| {
                value_error(format!(
                    "{what}: expected tiles 0 to 255, found {t} at index {i}"
                ))
            })
        })
        .collect::<PyResult<_>>()?;
    Board::from_cells(size, cells).map_err(|e| value_error(format!("{what}: {e}")))
}

/// The goal for `board`: `goal` if given (its size must match), else tiles in order with
/// the blank last.
pub(crate) fn goal_arg(goal: Option<&Bound<'_, PyAny>>, board_size: Size) -> PyResult<Board> {
    match goal {
        None => Ok(Board::solved(board_size)),
        Some(g) => {
            let s = board_size.to_string();
            let g = board_arg(g, Some(&s), "goal")?;
            if g.size() != board_size {
                return Err(value_error(format!(
                    "goal: expected a {board_size} board, found a {} one",
                    g.size()
                )));
            }
            Ok(g)
        }
    }
}

pub(crate) fn notation_arg(n: &str) -> PyResult<Notation> {
    n.parse::<Notation>()
        .map_err(|e| value_error(format!("notation: {e}")))
}

pub(crate) fn partition_arg(goal: &Board, spec: &str) -> PyResult<Vec<Vec<u8>>> {
    partition(goal, spec).map_err(|e| value_error(format!("partition: {e}")))
}

/// A whole number that fits `T`, as a Python int gives it (any size up to 128 bits).
pub(crate) trait Whole: TryFrom<i128> {
    /// The largest value `T` holds.
    const MAX: u128;
}

impl Whole for usize {
    const MAX: u128 = usize::MAX as u128;
}

impl Whole for u64 {
    const MAX: u128 = u64::MAX as u128;
}

/// The whole-number argument `name` checked into `T`: a ValueError naming it, the range
/// and what was given when it is negative or too large (instead of pyo3's unnamed
/// OverflowError).
pub(crate) fn whole<T: Whole>(name: &str, v: i128) -> PyResult<T> {
    T::try_from(v).map_err(|_| {
        value_error(format!(
            "{name}: expected a whole number from 0 to {}, found {v}",
            T::MAX
        ))
    })
}

/// [`whole`] for an argument that may be left out.
pub(crate) fn whole_or_none<T: Whole>(name: &str, v: Option<i128>) -> PyResult<Option<T>> {
    v.map(|v| whole(name, v)).transpose()
}

/// `max_memory`: a whole number of bytes, or a size such as `"4G"` read by the library as
/// the CLI reads `--max-memory`.
pub(crate) fn bytes_arg(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    if let Ok(s) = v.extract::<String>() {
        return npuzzle::limits::parse_bytes(&s)
            .map_err(|e| value_error(format!("max_memory: {e}")));
    }
    match v.extract::<i128>() {
        Ok(n) if !v.is_instance_of::<pyo3::types::PyBool>() => whole("max_memory", n),
        _ => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "max_memory: expected a whole number of bytes or a size such as \"4G\", found {}",
            v.get_type().name()?
        ))),
    }
}

/// A time limit in seconds: representable and not negative, or none (a limit of 0 is the
/// library's to refuse, in the words every face gives).
pub(crate) fn time_limit_arg(t: Option<f64>) -> PyResult<Option<Duration>> {
    match t {
        Some(t) if t >= 0.0 && Duration::try_from_secs_f64(t).is_ok() => {
            Ok(Some(Duration::from_secs_f64(t)))
        }
        Some(t) => Err(value_error(format!(
            "time_limit: expected a positive number of seconds, found {t}"
        ))),
        None => Ok(None),
    }
}

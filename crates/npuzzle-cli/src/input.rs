//! Reading boards from arguments and from standard input, with line numbers for errors.

use std::io::{self, BufRead};

use npuzzle::{Board, ParseError, Size};

/// The longest input line accepted; longer lines are reported, not read into memory.
pub const MAX_LINE: usize = 64 * 1024;

/// One board's text and where it started.
#[derive(Debug, Clone)]
pub struct Item {
    /// "line" for standard input, "argument" for the command line.
    pub origin: &'static str,
    /// 1-based line number in the input (or argument number).
    pub line: usize,
    /// The text: one line, or grid lines joined by newlines.
    pub text: String,
    /// An error found while reading the text itself.
    pub error: Option<String>,
}

/// Reads one line of at most `MAX_LINE` bytes; `None` at the end of input. A longer line
/// is consumed to its end and returned as `Err(length)`.
fn read_line(r: &mut impl BufRead) -> io::Result<Option<Result<String, String>>> {
    let mut buf = Vec::new();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        total += part.len();
        if buf.len() < MAX_LINE {
            let room = MAX_LINE - buf.len();
            buf.extend_from_slice(&part[..part.len().min(room)]);
        }
        let used = done.unwrap_or(chunk.len());
        r.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if total > MAX_LINE {
        return Ok(Some(Err(format!(
            "expected a line of at most {MAX_LINE} bytes, found {total} bytes"
        ))));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(String::from_utf8(buf).map_err(|e| {
        format!(
            "expected UTF-8 text, found an invalid byte at column {}",
            e.utf8_error().valid_up_to() + 1
        )
    })))
}

fn count_cells(line: &str) -> usize {
    let tokens: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() == 1
        && tokens[0].len() > 1
        && tokens[0].len() <= 9
        && tokens[0].parse::<u64>().is_ok()
    {
        tokens[0].len()
    } else {
        tokens.len()
    }
}

/// The texts of `args`, or else one per line of standard input (blank lines and `#`
/// comments skipped, never joined): for move sequences.
pub fn lines_from(args: &[String]) -> io::Result<Vec<Item>> {
    if !args.is_empty() {
        return Ok(from_args(args));
    }
    let mut r = io::stdin().lock();
    let mut items = Vec::new();
    let mut lineno = 0;
    while let Some(line) = read_line(&mut r)? {
        lineno += 1;
        let (text, error) = match line {
            Ok(l) if l.trim().is_empty() || l.trim().starts_with('#') => continue,
            Ok(l) => (l.trim().to_string(), None),
            Err(e) => (String::new(), Some(e)),
        };
        items.push(Item {
            origin: "line",
            line: lineno,
            text,
            error,
        });
    }
    Ok(items)
}

/// Splits input into boards: one per line, or grid lines joined until the board is
/// complete (the size's cell count with `size`, otherwise as many rows as the first row
/// has cells, or up to a blank line after rows that make a whole board). Blank lines and
/// `#` comments are skipped, also inside a grid.
pub fn read_items(r: impl BufRead, size: Option<Size>) -> io::Result<Vec<Item>> {
    Items::new(r, size).collect()
}

/// The boards of a reader, one at a time, as [`read_items`] splits them: a batch reads
/// only as far as it has got.
pub struct Items<R> {
    r: R,
    size: Option<Size>,
    pending: Vec<String>,
    pending_line: usize,
    pending_cells: usize,
    lineno: usize,
    ready: std::collections::VecDeque<Item>,
    done: bool,
}

impl<R: BufRead> Items<R> {
    /// Boards from `r`, of `size` if given.
    pub fn new(r: R, size: Option<Size>) -> Items<R> {
        Items {
            r,
            size,
            pending: Vec::new(),
            pending_line: 0,
            pending_cells: 0,
            lineno: 0,
            ready: std::collections::VecDeque::new(),
            done: false,
        }
    }

    /// Ends a pending grid (short, if so) as one board.
    fn flush(&mut self) {
        if !self.pending.is_empty() {
            self.ready.push_back(Item {
                origin: "line",
                line: self.pending_line,
                text: self.pending.join("\n"),
                error: None,
            });
            self.pending.clear();
        }
    }

    /// Reads one more line into the state.
    fn step(&mut self) -> io::Result<()> {
        let Some(line) = read_line(&mut self.r)? else {
            self.flush();
            self.done = true;
            return Ok(());
        };
        self.lineno += 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                self.flush();
                self.ready.push_back(Item {
                    origin: "line",
                    line: self.lineno,
                    text: String::new(),
                    error: Some(e),
                });
                return Ok(());
            }
        };
        let t = line.trim();
        if t.starts_with('#') {
            return Ok(());
        }
        if t.is_empty() {
            // A blank line is skipped, even inside a grid; it ends a grid only where the
            // rows so far already make a whole board (a grid that is not square, read
            // without --size, whose end nothing else marks).
            let whole =
                self.pending.len() >= 2 && Board::parse(&self.pending.join("\n"), None).is_ok();
            if whole {
                self.flush();
            }
            return Ok(());
        }
        let cells = count_cells(t);
        if !self.pending.is_empty() && raw_tokens(t) != raw_tokens(&self.pending[0]) {
            // Not another row of the same grid: the grid ends here (short, if so).
            self.flush();
        }
        if !self.pending.is_empty() {
            self.pending.push(t.to_string());
            self.pending_cells += cells;
            let done = match self.size {
                Some(s) => self.pending_cells >= s.cells(),
                None => self.pending.len() >= count_cells(&self.pending[0]),
            };
            if done {
                self.flush();
            }
            return Ok(());
        }
        let complete = t.contains('/')
            || match self.size {
                Some(s) => cells >= s.cells(),
                None => Board::parse(t, None).is_ok() || cells < 2 || fits_square(t, cells),
            };
        if complete {
            self.ready.push_back(Item {
                origin: "line",
                line: self.lineno,
                text: t.to_string(),
                error: None,
            });
        } else {
            self.pending.push(t.to_string());
            self.pending_line = self.lineno;
            self.pending_cells = cells;
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for Items<R> {
    type Item = io::Result<Item>;

    fn next(&mut self) -> Option<io::Result<Item>> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Some(Ok(item));
            }
            if self.done {
                return None;
            }
            if let Err(e) = self.step() {
                self.done = true;
                return Some(Err(e));
            }
        }
    }
}

fn raw_tokens(line: &str) -> usize {
    line.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .count()
}

/// Whether a line of `cells` cells reads as a whole square board (right or wrong) rather
/// than the first row of a grid: its count is square and no tile is too large for it.
fn fits_square(line: &str, cells: usize) -> bool {
    let r = (cells as f64).sqrt().round() as usize;
    if r * r != cells {
        return false;
    }
    let too_big = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter_map(|t| t.parse::<u64>().ok())
        .any(|v| v >= cells as u64);
    !too_big || raw_tokens(line) == 1
}

/// Boards from the command line, or from standard input when there are none.
pub fn items_from(args: &[String], size: Option<Size>) -> io::Result<Vec<Item>> {
    if args.is_empty() {
        return read_items(io::stdin().lock(), size);
    }
    Ok(from_args(args))
}

/// One item per command-line argument.
fn from_args(args: &[String]) -> Vec<Item> {
    args.iter()
        .enumerate()
        .map(|(i, a)| Item {
            origin: "argument",
            line: i + 1,
            text: a.clone(),
            error: None,
        })
        .collect()
}

impl Item {
    /// Where the item came from, for error messages: `line 4`, `argument 2`.
    pub fn label(&self) -> String {
        format!("{} {}", self.origin, self.line)
    }
}

/// Parses an item's board, with the error text if it cannot.
pub fn parse_item(item: &Item, size: Option<Size>) -> Result<Board, String> {
    if let Some(e) = &item.error {
        return Err(e.clone());
    }
    Board::parse(&item.text, size).map_err(|e: ParseError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str, size: Option<Size>) -> Vec<(usize, String)> {
        read_items(input.as_bytes(), size)
            .unwrap()
            .into_iter()
            .map(|i| (i.line, i.text))
            .collect()
    }

    #[test]
    fn lines_grids_comments_and_blank_lines() {
        let input = "# a comment\n8 1 3/4 0 2/7 6 5\n\n1 2 3\n4 5 6\n7 8 0\n813402765\n1 2 3 4\n5 6 7 8\n\n";
        assert_eq!(
            texts(input, None),
            vec![
                (2, "8 1 3/4 0 2/7 6 5".to_string()),
                (4, "1 2 3\n4 5 6\n7 8 0".to_string()),
                (7, "813402765".to_string()),
                (8, "1 2 3 4\n5 6 7 8".to_string()),
            ]
        );
        let s = Some("4x2".parse().unwrap());
        assert_eq!(texts("1 2 3 4\n5 6 7 0\n1 2 3 4 5 6 7 0\n", s).len(), 2);
    }

    #[test]
    fn huge_and_binary_lines_are_reported() {
        let mut input = vec![b'1'; MAX_LINE + 10];
        input.extend_from_slice(b"\n\xff\xfe\n8 1 3/4 0 2/7 6 5\n");
        let items = read_items(&input[..], None).unwrap();
        assert_eq!(items.len(), 3);
        assert!(items[0].error.as_ref().unwrap().contains("at most"));
        assert!(items[1].error.as_ref().unwrap().contains("UTF-8"));
        assert_eq!(items[2].line, 3);
    }
}

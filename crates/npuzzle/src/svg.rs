//! Pictures of boards: an SVG of a position, or an animated SVG that plays a sequence of
//! moves. Self-contained (no fonts or scripts fetched), readable at every size up to
//! 16x16.
//!
//! Tiles are drawn on a grid of 100 units a cell (the picture scales to fit), numbered
//! in a bold sans-serif face sized to the number's digits, and coloured by a [`Scheme`]:
//! one colour, the tile's row in the goal, or its fringe (the speedsolvers' order of
//! solving: first row and column, then the next, and so on).

use std::fmt::Write as _;
use std::str::FromStr;

use crate::board::Board;
use crate::moves::Direction;

/// How tiles are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scheme {
    /// One colour for every tile.
    Plain,
    /// By the tile's row in the goal.
    #[default]
    Rows,
    /// By the tile's fringe in the goal: `min(row, column)`, the order in which
    /// speedsolvers reduce a board.
    Fringe,
}

impl FromStr for Scheme {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Scheme, crate::error::NameError> {
        match s {
            "plain" => Ok(Scheme::Plain),
            "rows" => Ok(Scheme::Rows),
            "fringe" => Ok(Scheme::Fringe),
            _ => Err(crate::error::NameError::new(
                &["plain", "rows", "fringe"],
                s,
            )),
        }
    }
}

/// How to draw.
#[derive(Debug, Clone)]
pub struct Style {
    /// The colouring.
    pub scheme: Scheme,
    /// The goal the colours refer to.
    pub goal: Board,
    /// Seconds per move in an animation.
    pub seconds_per_move: f64,
}

impl Style {
    /// The default style for `goal`: rows, a quarter second a move.
    pub fn new(goal: &Board) -> Style {
        Style {
            scheme: Scheme::Rows,
            goal: goal.clone(),
            seconds_per_move: 0.25,
        }
    }
}

/// Cell size in SVG units.
const CELL: f64 = 100.0;
/// The gap between tiles.
const GAP: f64 = 4.0;

/// The colour of `tile` (hue from its group among `groups`, a light and a dark tone).
fn colour(style: &Style, tile: u8) -> (String, &'static str) {
    let goal = &style.goal;
    let w = goal.size().width();
    let at = goal
        .cells()
        .iter()
        .position(|&t| t == tile)
        .expect("every tile is on the goal");
    let (r, c) = (at / w, at % w);
    let (group, groups) = match style.scheme {
        Scheme::Plain => return ("hsl(38, 70%, 80%)".into(), "#3b2a10"),
        Scheme::Rows => (r, goal.size().height()),
        Scheme::Fringe => (r.min(c), goal.size().width().min(goal.size().height())),
    };
    let hue = (group as f64 * 300.0 / groups.max(1) as f64) as u32;
    (format!("hsl({hue}, 65%, 78%)"), "#1d1d1d")
}

/// The font size for a number of `digits` digits in a cell.
fn font_size(digits: usize) -> f64 {
    match digits {
        1 => 52.0,
        2 => 46.0,
        _ => 34.0,
    }
}

fn header(out: &mut String, board: &Board) {
    let (w, h) = (board.size().width(), board.size().height());
    let (vw, vh) = (w as f64 * CELL + GAP, h as f64 * CELL + GAP);
    // About 64 px a cell for small boards, at most 768 px across for large ones.
    let scale = (768.0 / vw.max(vh)).min(0.64);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {vw} {vh}" width="{:.0}" height="{:.0}" role="img" aria-label="{w}x{h} sliding puzzle {board}">"#,
        vw * scale,
        vh * scale,
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{vw}" height="{vh}" rx="8" fill="#2b2d33"/>"##
    );
}

fn tile(out: &mut String, style: &Style, t: u8, x: f64, y: f64, inner: &str) {
    let (fill, ink) = colour(style, t);
    let digits = t.to_string().len();
    let s = CELL - GAP;
    let _ = writeln!(
        out,
        r#"<g transform="translate({x},{y})"><rect x="{GAP}" y="{GAP}" width="{s}" height="{s}" rx="10" fill="{fill}"/><text x="{cx}" y="{cy}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-weight="bold" font-size="{fs}" text-anchor="middle" dominant-baseline="central" fill="{ink}">{t}</text>{inner}</g>"#,
        cx = GAP + s / 2.0,
        cy = GAP + s / 2.0,
        fs = font_size(digits),
    );
}

/// An SVG picture of `board`.
///
/// ```
/// use npuzzle::svg::{render, Style};
/// use npuzzle::Board;
/// let b: Board = "8 1 3/4 0 2/7 6 5".parse().unwrap();
/// let svg = render(&b, &Style::new(&Board::solved(b.size())));
/// assert!(svg.starts_with("<svg"));
/// assert_eq!(svg.matches("<text").count(), 8);
/// ```
pub fn render(board: &Board, style: &Style) -> String {
    let mut out = String::new();
    header(&mut out, board);
    let w = board.size().width();
    for (i, &t) in board.cells().iter().enumerate() {
        if t != 0 {
            tile(
                &mut out,
                style,
                t,
                (i % w) as f64 * CELL,
                (i / w) as f64 * CELL,
                "",
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// An animated SVG that plays `moves` from `board` (each move taking
/// `style.seconds_per_move`, then a pause, then again); `None` if a move is illegal.
///
/// ```
/// use npuzzle::svg::{animate, Style};
/// use npuzzle::{Board, Direction::*};
/// let b: Board = "1 2 3/4 5 6/7 0 8".parse().unwrap();
/// let svg = animate(&b, &[Left], &Style::new(&Board::solved(b.size()))).unwrap();
/// assert_eq!(svg.matches("<animateTransform").count(), 8);
/// ```
pub fn animate(board: &Board, moves: &[Direction], style: &Style) -> Option<String> {
    let n = board.cells().len();
    let w = board.size().width();
    // Each tile's cell after every move.
    let mut where_: Vec<Vec<usize>> = vec![Vec::with_capacity(moves.len() + 1); n];
    let mut b = board.clone();
    let mut record = |b: &Board| {
        for (c, &t) in b.cells().iter().enumerate() {
            where_[t as usize].push(c);
        }
    };
    record(&b);
    for &d in moves {
        b.apply(d).ok()?;
        record(&b);
    }
    let steps = moves.len() as f64;
    // A second's pause at the end, then the loop starts again.
    let pause = 1.0;
    let dur = steps * style.seconds_per_move + pause;
    let mut times: Vec<String> = (0..=moves.len())
        .map(|k| format!("{:.4}", k as f64 * style.seconds_per_move / dur))
        .collect();
    times.push("1".into());
    let mut out = String::new();
    header(&mut out, board);
    for (t, cells) in where_.iter().enumerate().skip(1) {
        let mut values: Vec<String> = cells
            .iter()
            .map(|&c| format!("{},{}", (c % w) as f64 * CELL, (c / w) as f64 * CELL))
            .collect();
        values.push(values.last().expect("a position").clone());
        let anim = format!(
            r#"<animateTransform attributeName="transform" type="translate" dur="{dur:.3}s" repeatCount="indefinite" calcMode="linear" keyTimes="{}" values="{}"/>"#,
            times.join(";"),
            values.join(";")
        );
        let c = cells[0];
        tile(
            &mut out,
            style,
            t as u8,
            (c % w) as f64 * CELL,
            (c / w) as f64 * CELL,
            &anim,
        );
    }
    out.push_str("</svg>\n");
    Some(out)
}

//! Beam search: breadth-first, layer by layer, keeping only the `width` most promising
//! positions of each layer (the best rank, from the Manhattan-plus-linear-conflict
//! estimate: see `BeamSetup::rank`). Not
//! optimal, but on boards far too big for an exact search it finds short answers; wider
//! beams find shorter ones.
//!
//! A beam can aim at part of the board: only some tiles tracked (the estimate counts
//! them alone, and positions that differ only in the others are one position), the blank
//! kept to some cells. [`beam`] and [`anytime`] solve a big board that way, a line at a time
//! (the top two rows and left two columns together, as an L, once what is left is at most
//! [`STAGED_L_SIDE`] on a side), the way [`fast`](super::fast) does tile by tile, and
//! finish with a beam over the whole last region.

mod anytime;
mod keep;
mod layer;
mod region;
mod run;
mod samples;
mod setup;
mod staged;
#[cfg(test)]
mod tests;
mod views;

pub use anytime::*;
pub use layer::*;
pub use samples::*;
pub use staged::*;

//! One module per subcommand.

pub mod analyze;
pub mod bench;
pub mod compare;
pub mod judge;
pub mod moves;
pub mod pdb;
pub mod render;
pub mod scramble;
pub mod sequence;
pub mod serve;
pub mod shell;
pub mod solvable;
pub mod solve;

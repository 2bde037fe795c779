//! One module per subcommand.

pub mod analyze;
pub mod compare;
pub mod judge;
pub mod moves;
pub mod solvable;
pub mod solve;

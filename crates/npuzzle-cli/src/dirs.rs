//! Where the CLI keeps what it builds: the library's folders ([`npuzzle::request::cache_dir`]),
//! unless an option names another.

use std::path::PathBuf;

use npuzzle::Board;

/// A non-empty environment variable as a path.
pub fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The cache directory: the library's ([`npuzzle::request::cache_dir`]).
pub fn default_dir() -> Option<PathBuf> {
    npuzzle::request::cache_dir()
}

/// The file name of the distance table for `goal`: size and a hash of the goal.
pub fn table_file_name(goal: &Board) -> String {
    npuzzle::request::Core::table_file(goal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_carry_size_and_goal() {
        let a = Board::solved("3x4".parse().unwrap());
        let b: Board = "1 2 3/4 5 6/7 8 9/10 0 11".parse().unwrap();
        assert!(table_file_name(&a).starts_with("table-3x4-"));
        assert_ne!(table_file_name(&a), table_file_name(&b));
    }
}

//! Where npuzzle keeps the tables it builds, and how it writes them safely.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::board::Board;

/// The environment variable that overrides the cache directory.
pub const CACHE_ENV: &str = "NPUZZLE_CACHE_DIR";

/// The cache directory: `$NPUZZLE_CACHE_DIR`, else `$XDG_CACHE_HOME/npuzzle`, else
/// `$HOME/.cache/npuzzle`; `None` if none of them is set.
pub fn default_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var(CACHE_ENV)
        .or_else(|| var("XDG_CACHE_HOME").map(|p| p.join("npuzzle")))
        .or_else(|| var("HOME").map(|p| p.join(".cache").join("npuzzle")))
}

/// The file name of the distance table for `goal`: size and a hash of the goal.
///
/// ```
/// let goal = npuzzle::Board::solved("3x4".parse().unwrap());
/// assert!(npuzzle::cache::table_file_name(&goal).starts_with("table-3x4-"));
/// ```
pub fn table_file_name(goal: &Board) -> String {
    format!("table-{}-{:016x}.npz", goal.size(), checksum(goal.cells()))
}

/// A 64-bit checksum (FNV-1a over 8-byte words, then a final mix): fast enough for
/// hundreds of megabytes, and any flipped bit changes it.
pub fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h ^ u64::from_le_bytes(c.try_into().expect("8 bytes"))).wrapping_mul(PRIME);
        h ^= h >> 29;
    }
    for &b in chunks.remainder() {
        h = (h ^ b as u64).wrapping_mul(PRIME);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// Writes `bytes` to `path` so that no reader ever sees a partial file: a temporary file
/// in the same directory, flushed to disk, then renamed over `path`. Creates the
/// directory if needed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy().into_owned());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_sees_every_bit() {
        let base = vec![7u8; 100];
        let c = checksum(&base);
        for i in 0..100 {
            for bit in 0..8 {
                let mut b = base.clone();
                b[i] ^= 1 << bit;
                assert_ne!(checksum(&b), c);
            }
        }
        assert_ne!(checksum(&base[..99]), c);
    }

    #[test]
    fn atomic_write_replaces_whole_files() {
        let dir = std::env::temp_dir().join(format!("npuzzle-cache-test-{}", std::process::id()));
        let p = dir.join("sub").join("f.bin");
        write_atomic(&p, b"first").unwrap();
        write_atomic(&p, b"second").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second");
        let leftovers = std::fs::read_dir(p.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary files left behind");
        std::fs::remove_dir_all(dir).unwrap();
    }
}

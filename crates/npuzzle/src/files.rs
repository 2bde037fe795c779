//! File formats' common parts: checksums, versioned headers, bounds-checked reading and
//! atomic writes. Where files are kept (cache folders, environment variables) is the
//! caller's policy, not this module's.
//!
//! Every npuzzle file starts with an 8-byte magic and a little-endian `u32` format
//! version, and ends with a [`checksum`] of everything before it.

use std::io::{self, Write};
use std::path::Path;

use crate::error::FileError;

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
    write_atomic_as(path, bytes, None)
}

/// [`write_atomic`], the new file given `permissions` (else the system's default for a
/// new file) before it takes the name.
fn write_atomic_as(
    path: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("expected a folder, found a file at {}", dir.display()),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot create the folder {}: {e}", dir.display()),
        )
    })?;
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy().into_owned());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        if let Some(p) = permissions {
            f.set_permissions(p)?;
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Writes `bytes` to a path a person named, as a shell's `>` would leave it, but never
/// half written. A new path is created (its folder must exist: none is made); an existing
/// regular file (also through a symbolic link, whose target is written and the link kept)
/// is replaced atomically with [`write_atomic`] keeping its permissions, or, where it has
/// other names (hard links), written in place so that every name sees the new bytes;
/// anything else that exists (a FIFO, a terminal, `/dev/null`) is opened and written
/// through, never replaced; a directory is an error.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("npuzzle-doc-through-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let file = dir.join("out.svg");
/// npuzzle::files::write_through(&file, b"<svg/>").unwrap();
/// assert_eq!(std::fs::read(&file).unwrap(), b"<svg/>");
/// assert!(npuzzle::files::write_through(&dir, b"x").is_err());
/// // No folder is made for a path that names one that is not there.
/// assert!(npuzzle::files::write_through(&dir.join("no/such.svg"), b"x").is_err());
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_through(path: &Path, bytes: &[u8]) -> io::Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {
            let target = std::fs::canonicalize(path)?;
            #[cfg(unix)]
            let linked = {
                use std::os::unix::fs::MetadataExt;
                m.nlink() > 1
            };
            #[cfg(not(unix))]
            let linked = false;
            if linked {
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(&target)?;
                f.write_all(bytes)?;
                return f.sync_all();
            }
            write_atomic_as(&target, bytes, Some(m.permissions()))
        }
        Ok(m) if m.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "expected a file, found a directory",
        )),
        Ok(_) => {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            f.write_all(bytes)?;
            f.flush()
        }
        // A link to nothing yet: create its target, as a shell's `>` would.
        Err(e)
            if e.kind() == io::ErrorKind::NotFound
                && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) =>
        {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)?;
            f.write_all(bytes)?;
            f.sync_all()
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => write_atomic(path, bytes),
                Ok(m) => Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    format!(
                        "expected a folder at {}, found {}",
                        dir.display(),
                        kind_in_words(m.file_type())
                    ),
                )),
                Err(_) => Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("expected a folder at {}, found none", dir.display()),
                )),
            }
        }
        Err(e) => Err(e),
    }
}

/// Reads the regular file at `path` through to its end, discarding what it reads, unless
/// `deadline` comes first: whether the whole file was read. Reading a file brings it into
/// the system's page cache, so a later open finds it there at once; a file on a cold, slow
/// disk (seconds for hundreds of MB) is left part read instead of holding up a caller
/// whose time is limited.
///
/// ```
/// use std::time::{Duration, Instant};
/// let path = std::env::temp_dir().join(format!("npuzzle-warm-doc-{}", std::process::id()));
/// std::fs::write(&path, vec![7u8; 1 << 20]).unwrap();
/// assert!(npuzzle::files::warm(&path, Instant::now() + Duration::from_secs(60)).unwrap());
/// // A deadline already past: nothing is read.
/// assert!(!npuzzle::files::warm(&path, Instant::now()).unwrap());
/// std::fs::remove_file(&path).unwrap();
/// ```
pub fn warm(path: &Path, deadline: std::time::Instant) -> io::Result<bool> {
    use std::io::Read;
    let mut file = open_regular(path)?;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        if std::time::Instant::now() >= deadline {
            return Ok(false);
        }
        match file.read(&mut buf) {
            Ok(0) => return Ok(true),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Opens `path` for reading if it is a regular file (through symbolic links); a FIFO, a
/// device, a socket or a directory is an error naming what was found, and is never
/// waited on: the open does not block.
pub fn open_regular(path: &Path) -> io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting.
        options.custom_flags(0o4000);
    }
    let file = options.open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("expected a regular file, found {}", kind_in_words(kind)),
    ))
}

/// What a file of type `kind` is, in words, for messages: "a file" (a regular one), "a
/// directory", "a FIFO", "a socket", "a device", or "something else".
///
/// ```
/// let dir = std::env::temp_dir();
/// let kind = std::fs::metadata(&dir).unwrap().file_type();
/// assert_eq!(npuzzle::files::kind_in_words(kind), "a directory");
/// ```
pub fn kind_in_words(kind: std::fs::FileType) -> &'static str {
    if kind.is_file() {
        return "a file";
    }
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        } else if kind.is_socket() {
            return "a socket";
        } else if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    "something else"
}

/// The bytes of the regular file in `path` (see [`open_regular`]).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The name of the stamp beside `path` that says npuzzle wrote or proved its contents.
fn stamp_path(path: &Path) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".checked");
    name.into()
}

/// The first bytes of a stamp.
const STAMP_MAGIC: &[u8; 8] = b"NPZSTAMP";
/// The stamp's format: the file's identity on disk (device, inode, size, change time)
/// and its checksum.
const STAMP_VERSION: u32 = 2;

/// What a stamp records of a file: where it is on disk and when it last changed (fields
/// that only the system sets: a copy, a file renamed over it, or a write in place gives
/// other values), its length, and the checksum at its end (`seal`).
fn stamp_bytes(meta: &std::fs::Metadata, seal: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(72);
    out.extend_from_slice(STAMP_MAGIC);
    out.extend_from_slice(&STAMP_VERSION.to_le_bytes());
    #[cfg(unix)]
    let fields = {
        use std::os::unix::fs::MetadataExt;
        [
            meta.dev(),
            meta.ino(),
            meta.size(),
            meta.ctime() as u64,
            meta.ctime_nsec() as u64,
            meta.mtime() as u64,
            meta.mtime_nsec() as u64,
        ]
    };
    #[cfg(not(unix))]
    let fields = {
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        [
            0,
            0,
            meta.len(),
            0,
            0,
            modified.as_secs(),
            modified.subsec_nanos() as u64,
        ]
    };
    for f in fields {
        out.extend_from_slice(&f.to_le_bytes());
    }
    out.extend_from_slice(&seal.to_le_bytes());
    crate::files::seal(&mut out);
    out
}

/// Whether the file in `path`, whose metadata (taken when it was opened, before it was
/// read) is `meta` and whose trailing checksum is `seal`, was written or proven by
/// npuzzle: its stamp (written by [`write_stamp`]) names this very file on disk,
/// unchanged since. A stamp copied beside another file, a file copied elsewhere, replaced
/// (even by one sealed with a valid checksum) or written in place no longer matches.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("npuzzle-doc-stamp-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let (a, b) = (dir.join("a.npz"), dir.join("b.npz"));
/// std::fs::write(&a, b"sound").unwrap();
/// std::fs::write(&b, b"forged").unwrap();
/// let meta = |p: &std::path::Path| std::fs::metadata(p).unwrap();
/// npuzzle::files::write_stamp(&a, &meta(&a), 7);
/// assert!(npuzzle::files::stamp_matches(&a, &meta(&a), 7));
/// // The stamp copied beside another file (with the same checksum) proves nothing.
/// std::fs::copy(dir.join("a.npz.checked"), dir.join("b.npz.checked")).unwrap();
/// assert!(!npuzzle::files::stamp_matches(&b, &meta(&b), 7));
/// std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn stamp_matches(path: &Path, meta: &std::fs::Metadata, seal: u64) -> bool {
    read_regular(&stamp_path(path)).is_ok_and(|b| b == stamp_bytes(meta, seal))
}

/// Whether the file in `path` is stamped as it is now (see [`stamp_matches`]), read
/// without reading more than its last 8 bytes.
pub fn is_stamped(path: &Path) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    let Ok(mut file) = open_regular(path) else {
        return false;
    };
    let Ok(meta) = file.metadata() else {
        return false;
    };
    let mut tail = [0u8; 8];
    meta.len() >= 8
        && file.seek(SeekFrom::End(-8)).is_ok()
        && file.read_exact(&mut tail).is_ok()
        && stamp_matches(path, &meta, u64::from_le_bytes(tail))
}

/// Records that the file in `path`, whose metadata (taken before it was written out or
/// read through) is `meta` and whose trailing checksum is `seal`, was written or proven
/// by npuzzle, so that later loads need not prove it again. Best effort: a folder that
/// cannot be written only means the proof runs again next time.
pub fn write_stamp(path: &Path, meta: &std::fs::Metadata, seal: u64) {
    let _ = write_atomic(&stamp_path(path), &stamp_bytes(meta, seal));
}

/// Removes the stamp of the file in `path`, if any.
pub fn remove_stamp(path: &Path) {
    let _ = std::fs::remove_file(stamp_path(path));
}

/// The checksum stored at the end of the file at `path` (its last 8 bytes, see
/// [`seal`]), read without reading the rest; `None` for a file shorter than that.
pub fn file_seal(path: &Path) -> io::Result<Option<u64>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = open_regular(path)?;
    if file.metadata()?.len() < 8 {
        return Ok(None);
    }
    file.seek(SeekFrom::End(-8))?;
    let mut tail = [0u8; 8];
    file.read_exact(&mut tail)?;
    Ok(Some(u64::from_le_bytes(tail)))
}

/// The checksum stored at the end of file bytes (see [`seal`]), if there are 8 bytes.
pub fn stored_seal(bytes: &[u8]) -> Option<u64> {
    let tail = bytes.get(bytes.len().checked_sub(8)?..)?;
    Some(u64::from_le_bytes(tail.try_into().ok()?))
}

/// Checks the magic and the version at the start of `bytes`.
pub fn check_header(bytes: &[u8], magic: &[u8; 8], version: u32) -> Result<(), FileError> {
    let mut r = Reader::new(bytes);
    let found = r.take(8)?;
    if found != magic {
        return Err(FileError::BadMagic {
            expected: String::from_utf8_lossy(magic).into_owned(),
            found: String::from_utf8_lossy(found).into_owned(),
        });
    }
    let found = r.u32()?;
    if found != version {
        return Err(FileError::Version {
            expected: version,
            found,
        });
    }
    Ok(())
}

/// Checks the trailing checksum of `bytes`; returns the body before it.
pub fn check_trailer(bytes: &[u8]) -> Result<&[u8], FileError> {
    if bytes.len() < 8 {
        return Err(FileError::Truncated {
            expected: 8,
            found: bytes.len() as u64,
        });
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
    let computed = checksum(body);
    if stored != computed {
        return Err(FileError::Checksum { stored, computed });
    }
    Ok(body)
}

/// Appends the checksum of `out` to it.
pub fn seal(out: &mut Vec<u8>) {
    let sum = checksum(out);
    out.extend_from_slice(&sum.to_le_bytes());
}

/// Reads little-endian fields from a byte slice, never past its end: a short slice is
/// [`FileError::Truncated`] with the length it would have needed.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    /// Offset of the next field.
    pub pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, pos: 0 }
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], FileError> {
        if self.bytes.len() - self.pos < n {
            return Err(FileError::Truncated {
                expected: (self.pos as u64).saturating_add(n as u64),
                found: self.bytes.len() as u64,
            });
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// The next byte.
    pub(crate) fn u8(&mut self) -> Result<u8, FileError> {
        Ok(self.take(1)?[0])
    }

    /// The next little-endian `u32`.
    pub(crate) fn u32(&mut self) -> Result<u32, FileError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }

    /// The next little-endian `u64`.
    pub(crate) fn u64(&mut self) -> Result<u64, FileError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
}

/// Turns an I/O error on `path` into a [`FileError`] naming the file.
pub fn io_error(path: &Path) -> impl Fn(io::Error) -> FileError + Copy + '_ {
    move |e| FileError::Io {
        path: path.display().to_string(),
        error: e.to_string(),
    }
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

    #[cfg(unix)]
    #[test]
    fn named_paths_are_written_through() {
        use std::os::unix::fs::{symlink, FileTypeExt};
        let dir = std::env::temp_dir().join(format!("npuzzle-through-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A link to a regular file: the target changes, the link stays a link.
        let target = dir.join("target.svg");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.join("link.svg");
        symlink(&target, &link).unwrap();
        write_through(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A file of the owner's only keeps its permissions; one with two names is written
        // under both.
        {
            use std::os::unix::fs::PermissionsExt;
            let private = dir.join("private.svg");
            std::fs::write(&private, b"old").unwrap();
            std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
            write_through(&private, b"new").unwrap();
            let mode = std::fs::metadata(&private).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
            let other = dir.join("other-name.svg");
            std::fs::hard_link(&private, &other).unwrap();
            write_through(&private, b"both").unwrap();
            assert_eq!(std::fs::read(&other).unwrap(), b"both");
            assert!(write_through(&dir.join("missing/x.svg"), b"x").is_err());
            assert!(!dir.join("missing").exists(), "no folder made");
        }
        // A dangling link: its target is created.
        let dangling = dir.join("dangling.svg");
        symlink(dir.join("made.svg"), &dangling).unwrap();
        write_through(&dangling, b"made").unwrap();
        assert!(std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(dir.join("made.svg")).unwrap(), b"made");
        // A FIFO stays a FIFO and its reader gets the bytes.
        let fifo = dir.join("pipe");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_through(&fifo, b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        // /dev/null stays a device; /dev/full reports its error.
        write_through(Path::new("/dev/null"), b"gone").unwrap();
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
        if Path::new("/dev/full").exists() {
            assert!(write_through(Path::new("/dev/full"), b"x").is_err());
        }
        std::fs::remove_dir_all(dir).unwrap();
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

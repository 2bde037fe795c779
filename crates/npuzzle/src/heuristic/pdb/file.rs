//! The database file: magic, format version, size, goal, tiles, entry count, one byte per
//! placement (version 1) or four (version 2: zero-aware), and a checksum; loading checks
//! all of it.

use std::io::Read;
use std::path::Path;

use super::{entry_width, huge_buffer, huge_copy, PatternDb, Placement};
use crate::board::{Board, Size};
use crate::error::{human_bytes, DatabaseError, FileError};
use crate::files::{check_header, check_trailer, io_error, seal, Reader};
use crate::limits::Limits;
use memmap2::Mmap;

/// How [`PatternDb::open`] brings a database file into memory.
///
/// A mapped file shares the system's page cache and starts at once, but another program
/// that cuts it short while it is mapped (`cp` over it writes it in place) ends the
/// process with SIGBUS, and one that rewrites it changes the entries under a search. So
/// the library reads by default, and maps only where asked to, or for a process that
/// gives one answer and ends ([`Once`](Load::Once)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Load {
    /// Read into memory of its own ([`Read`](Load::Read)), where nothing another program
    /// does to the file can reach it: the choice for servers, batches and libraries
    /// (catalogues of many databases open them mapped, copy the ones a search looks up
    /// and never touch the others again).
    #[default]
    Auto,
    /// Map the file read-only: starts at once, shares pages between processes; only for
    /// files that nothing else writes while they are in use.
    Map,
    /// Read into memory of its own on huge pages: slower to start (about 1 s for the
    /// 24-puzzle's 510 MB here), lookups about 15% faster.
    Read,
    /// For a process that gives one answer and ends (a one-board `npuzzle solve`): map
    /// where loading would take most of the answer's time, read otherwise (see
    /// [`reads`](Load::reads)).
    Once,
}

impl Load {
    /// Whether a database of a board of `cells` cells is read into memory of its own
    /// (rather than mapped) this way.
    pub fn reads(self, cells: usize) -> bool {
        match self {
            Load::Read | Load::Auto => true,
            Load::Map => false,
            // One answer: read for the exact searches of 17 to 25 cells and the anytime
            // solver's 6x6 databases (302 MiB) where they are loaded ahead; mapped past
            // that: the 7x7 set's 1.8 GB took about 5 s to read here, half a 10 s solve,
            // and mapped the beams ran 9% fewer positions in the same time for the same
            // lengths (1.484 against 1.478 times the Manhattan distance, eight boards at
            // 10 s); mapped up to 16 cells too, whose searches take milliseconds.
            Load::Once => (17..=36).contains(&cells),
        }
    }
}

impl std::str::FromStr for Load {
    type Err = crate::error::NameError;
    fn from_str(s: &str) -> Result<Load, crate::error::NameError> {
        match s {
            "auto" => Ok(Load::Auto),
            "map" => Ok(Load::Map),
            "read" => Ok(Load::Read),
            _ => Err(crate::error::NameError::new(&["auto", "map", "read"], s)),
        }
    }
}

/// What a file's header says, once checked.
struct Header {
    goal: Board,
    tiles: Vec<u8>,
    place: Placement,
    /// Where the entries start.
    start: usize,
    /// Version 2: zero-aware entries of four bytes.
    zero_aware: bool,
}

/// The first bytes of a pattern database file.
pub(crate) const PDB_MAGIC: &[u8; 8] = b"NPZPATDB";
/// The format version of plain databases (a byte an entry).
pub(crate) const PDB_VERSION: u32 = 1;
/// The format version of zero-aware databases (four bytes an entry).
pub(crate) const PDB_VERSION_ZERO_AWARE: u32 = 2;

/// What a database file's header says: enough to list it without reading (or
/// checksumming) its entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdbInfo {
    /// The goal the database was built for.
    pub goal: Board,
    /// The pattern's tiles, in index order.
    pub tiles: Vec<u8>,
    /// The number of entries.
    pub entries: u64,
    /// Whether the entries are zero-aware (four bytes each).
    pub zero_aware: bool,
    /// The length of the whole file.
    pub file_len: u64,
}

impl PdbInfo {
    /// Reads and checks the header of the database file in `path` (magic, version, size,
    /// goal, tiles, entry count, and that the file's length fits them); the checksum is
    /// not read: [`PatternDb::open`] checks that.
    pub fn read(path: &Path) -> Result<PdbInfo, FileError> {
        let io = io_error(path);
        let mut file = crate::files::open_regular(path).map_err(io)?;
        let file_len = file.metadata().map_err(io)?.len();
        // Magic, version, size, tile count: 16 bytes; then at most 255 goal cells and
        // 255 tiles, and the entry count.
        let mut head = Vec::with_capacity(16 + 255 + 255 + 8);
        file.by_ref()
            .take(16 + 255 + 255 + 8)
            .read_to_end(&mut head)
            .map_err(io)?;
        let h = parse_header(&head, file_len)?;
        Ok(PdbInfo {
            goal: h.goal,
            tiles: h.tiles,
            entries: h.place.count(),
            zero_aware: h.zero_aware,
            file_len,
        })
    }
}

/// Checks a header (the first bytes of a file of `file_len` bytes): magic, version, that
/// the goal and tiles are sound and that the entry count fits them and the file's length.
fn parse_header(bytes: &[u8], file_len: u64) -> Result<Header, FileError> {
    let zero_aware = check_version(bytes)?;
    let mut r = Reader::new(bytes);
    r.take(12)?;
    let (w, h, k) = (r.u8()?, r.u8()?, r.u8()? as usize);
    r.u8()?;
    let size =
        Size::new(w as usize, h as usize).map_err(|e| FileError::Invalid(format!("size: {e}")))?;
    let n = size.cells();
    let goal = Board::from_cells(size, r.take(n)?.to_vec())
        .map_err(|e| FileError::Invalid(format!("goal: {e}")))?;
    let tiles = r.take(k)?.to_vec();
    super::partition::check_pattern_in_words(size, &tiles).map_err(FileError::Invalid)?;
    let len = r.u64()?;
    let place = Placement::new(n, k);
    if len != place.count() {
        return Err(FileError::Invalid(format!(
            "expected {} entries for {k} tiles on {size}, found {len}",
            place.count()
        )));
    }
    if zero_aware && n > super::ZERO_AWARE_MAX_CELLS {
        return Err(FileError::Invalid(format!(
            "expected zero-aware entries only for boards of up to {} cells, found {size}",
            super::ZERO_AWARE_MAX_CELLS
        )));
    }
    let start = r.pos;
    let want = start as u64 + entry_width(zero_aware) as u64 * len + 8;
    if file_len != want {
        return Err(if file_len < want {
            FileError::Truncated {
                expected: want,
                found: file_len,
            }
        } else {
            FileError::Invalid(format!("expected {want} bytes, found {file_len}"))
        });
    }
    Ok(Header {
        goal,
        tiles,
        place,
        start,
        zero_aware,
    })
}

/// Checks the magic and version; whether the entries are zero-aware (version 2).
fn check_version(bytes: &[u8]) -> Result<bool, FileError> {
    let zero_aware = bytes.get(8..12) == Some(&PDB_VERSION_ZERO_AWARE.to_le_bytes()[..]);
    check_header(bytes, PDB_MAGIC, format_version(zero_aware))?;
    Ok(zero_aware)
}

/// The format version of a database's file.
fn format_version(zero_aware: bool) -> u32 {
    if zero_aware {
        PDB_VERSION_ZERO_AWARE
    } else {
        PDB_VERSION
    }
}

/// Checks whole file bytes: the header (and length) as [`parse_header`] does, then the
/// checksum.
fn parse(bytes: &[u8]) -> Result<Header, FileError> {
    // The header first: a file cut short says so, not that its last bytes are no checksum.
    let head = parse_header(bytes, bytes.len() as u64)?;
    check_trailer(bytes)?;
    Ok(head)
}

impl PatternDb {
    /// The database as file bytes: magic, version, size, goal, tiles, entries, checksum.
    pub fn to_bytes(&self) -> Vec<u8> {
        let size = self.goal.size();
        let mut out = Vec::with_capacity(64 + self.entries().len());
        out.extend_from_slice(PDB_MAGIC);
        out.extend_from_slice(&format_version(self.zero_aware).to_le_bytes());
        out.push(size.width() as u8);
        out.push(size.height() as u8);
        out.push(self.tiles.len() as u8);
        out.push(0);
        out.extend_from_slice(self.goal.cells());
        out.extend_from_slice(&self.tiles);
        out.extend_from_slice(&(self.len() as u64).to_le_bytes());
        out.extend_from_slice(self.entries());
        seal(&mut out);
        out
    }

    /// Reads a database from file bytes, checking magic, version, checksum, that the
    /// goal and tiles are sound and that the entry count fits them.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternDb, FileError> {
        let head = parse(bytes)?;
        let len = entry_width(head.zero_aware) * head.place.count() as usize;
        let entries = &bytes[head.start..head.start + len];
        let data = huge_copy(entries).map_err(|e| {
            FileError::Invalid(format!(
                "cannot allocate {}: {e}",
                human_bytes(entries.len() as u64)
            ))
        })?;
        Ok(PatternDb::from_header(Header { start: 0, ..head }, data))
    }

    /// The checksum at the end of the file this database was opened from (`None` for
    /// one built or read from bytes): what a stamp records.
    pub fn stored_seal(&self) -> Option<u64> {
        crate::files::stored_seal(self.data.get(..self.start + self.entries().len() + 8)?)
    }

    /// A database from its checked header and the bytes holding its entries.
    fn from_header(head: Header, data: Mmap) -> PatternDb {
        PatternDb::from_parts(
            head.goal,
            head.tiles,
            head.place,
            data,
            head.start,
            head.zero_aware,
        )
    }

    /// Opens the database in `path` as `how` says, checking it as
    /// [`from_bytes`](PatternDb::from_bytes) does.
    pub fn open(path: &Path, how: Load) -> Result<PatternDb, FileError> {
        match how {
            Load::Map => PatternDb::map(path),
            Load::Read => PatternDb::read(path),
            Load::Auto => PatternDb::read(path),
            Load::Once => {
                // The board's size is in the header: bytes 12 and 13.
                let mut head = [0u8; 14];
                let cells = crate::files::open_regular(path)
                    .and_then(|mut f| f.read_exact(&mut head))
                    .map(|_| head[12] as usize * head[13] as usize)
                    .unwrap_or(0);
                if how.reads(cells) {
                    PatternDb::read(path)
                } else {
                    PatternDb::map(path)
                }
            }
        }
    }

    /// Reads the database in `path` into memory of its own (one copy, on huge pages
    /// where the system grants them) and checks it as
    /// [`from_bytes`](PatternDb::from_bytes) does. The fastest for searching.
    pub fn read(path: &Path) -> Result<PatternDb, FileError> {
        let io = io_error(path);
        let mut file = crate::files::open_regular(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let len = usize::try_from(len).map_err(|_| {
            FileError::Invalid(format!(
                "expected a file that fits in memory, found {len} bytes"
            ))
        })?;
        let mut buf = huge_buffer(len).map_err(io)?;
        file.read_exact(&mut buf[..len]).map_err(io)?;
        let data = buf.make_read_only().map_err(io)?;
        let head = parse(&data[..len])?;
        Ok(PatternDb::from_header(head, data))
    }

    /// Maps the database in `path` read-only, checking it as
    /// [`from_bytes`](PatternDb::from_bytes) does: no copy, and processes mapping the
    /// same file share its pages.
    pub fn map(path: &Path) -> Result<PatternDb, FileError> {
        let io = io_error(path);
        let file = crate::files::open_regular(path).map_err(io)?;
        #[allow(unsafe_code)]
        // SAFETY: a mapping is undefined behaviour in Rust's terms only if the file
        // changes while mapped. npuzzle never changes a database file in place: it
        // writes a temporary file and renames it over the old name
        // ([`write_atomic`](crate::files::write_atomic)), and `pdb remove` unlinks; either way the mapped inode
        // stays as it was. Only another program writing into the file could break this,
        // as it could break any program reading it.
        let data = unsafe { Mmap::map(&file) }.map_err(io)?;
        let head = parse(&data)?;
        let mut db = PatternDb::from_header(head, data);
        db.mapped = true;
        Ok(db)
    }
}

/// The file name of the database of `tiles` for `goal`, as the CLI's cache keeps it:
/// `pdb-WxH-GOALSUM-T1.T2...npz`, GOALSUM the goal's checksum in 16 hex digits.
pub fn file_name(goal: &Board, tiles: &[u8]) -> String {
    let t: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    format!(
        "pdb-{}-{:016x}-{}.npz",
        goal.size(),
        crate::files::checksum(goal.cells()),
        t.join(".")
    )
}

/// The file name of the database of `tiles` for `goal`, zero-aware or plain.
pub fn file_name_of(goal: &Board, tiles: &[u8], zero_aware: bool) -> String {
    if zero_aware {
        zero_aware_file_name(goal, tiles)
    } else {
        file_name(goal, tiles)
    }
}

/// The file name of the zero-aware database of `tiles` for `goal`:
/// `pdb-WxH-GOALSUM-T1.T2....za.npz`. Where both are kept, the zero-aware one is used.
pub fn zero_aware_file_name(goal: &Board, tiles: &[u8]) -> String {
    let plain = file_name(goal, tiles);
    format!("{}.za.npz", plain.trim_end_matches(".npz"))
}

/// The file of the database of `tiles` for `goal` in `dir`: the zero-aware one where
/// there is one (anything under that name, even unsound: opening it says what is wrong),
/// else the plain one's name.
pub fn cached_file(dir: &Path, goal: &Board, tiles: &[u8]) -> std::path::PathBuf {
    let za = dir.join(zero_aware_file_name(goal, tiles));
    if std::fs::symlink_metadata(&za).is_ok() {
        za
    } else {
        dir.join(file_name(goal, tiles))
    }
}

impl PatternDb {
    /// Saves the database to `path` as a regular file (atomically; a FIFO or a directory
    /// in its place is an error, never replaced), with the stamp that spares
    /// [`open_checked`](PatternDb::open_checked) its proof.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Ok(m) = std::fs::metadata(path) {
            if !m.is_file() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "expected a regular file or none, found something else in its place",
                ));
            }
        }
        let bytes = self.to_bytes();
        crate::files::write_atomic(path, &bytes)?;
        if let (Some(seal), Ok(meta)) = (crate::files::stored_seal(&bytes), std::fs::metadata(path))
        {
            crate::files::write_stamp(path, &meta, seal);
        }
        Ok(())
    }

    /// Proves the database right: the breadth-first search that builds it is run again
    /// within `limits` on `threads` threads (0: every core), and every entry compared.
    /// It costs what a build costs (milliseconds for a 3x3 group, about two minutes for
    /// the 4x4's 8-tile database on two cores).
    ///
    /// ```
    /// use npuzzle::heuristic::pdb::PatternDb;
    /// use npuzzle::{Board, Limits};
    /// let goal = Board::solved("3x3".parse().unwrap());
    /// let db = PatternDb::build(&goal, &[1, 2, 3, 4], &Limits::default(), 1, &mut |_| {}).unwrap();
    /// assert!(db.prove(&Limits::default(), 1).is_ok());
    /// ```
    pub fn prove(&self, limits: &Limits, threads: usize) -> Result<(), DatabaseError> {
        let sound = PatternDb::build_of(
            self.goal(),
            self.tiles(),
            limits,
            threads,
            &mut |_| {},
            self.is_zero_aware(),
        )
        .map_err(DatabaseError::Unchecked)?;
        let (mine, theirs) = (self.entries(), sound.entries());
        if let Some(i) = (0..mine.len()).find(|&i| mine[i] != theirs[i]) {
            let entry = i / self.width();
            return Err(DatabaseError::Unsound(format!(
                "expected the entries of a breadth-first search, found another at entry {entry} \
                 of {} (forged or corrupt)",
                self.len()
            )));
        }
        Ok(())
    }

    /// Opens the database in `path` and checks that it is the one of `tiles` for `goal`
    /// and that its entries are this goal's (the goal costs nothing). A file that npuzzle
    /// did not write or prove here (its stamp beside it, `NAME.checked`, names another
    /// file, or the file changed since) is proven by [`prove`](PatternDb::prove) when it
    /// is small enough to rebuild at once (up to [`PROVE_ON_LOAD`] entries) and stamped
    /// if sound; a larger one is refused ([`DatabaseError::Unproven`]). The error
    /// says what was expected and found.
    pub fn open_checked(
        path: &Path,
        goal: &Board,
        tiles: &[u8],
        how: Load,
    ) -> Result<PatternDb, DatabaseError> {
        // Taken before the bytes are read: a change made while they are read gives the
        // file another change time than a stamp records.
        let meta = crate::files::open_regular(path)
            .and_then(|f| f.metadata())
            .map_err(|e| FileError::Io {
                path: path.display().to_string(),
                error: e.to_string(),
            })?;
        let db = PatternDb::open(path, how)?;
        if db.goal() != goal || db.tiles() != tiles {
            return Err(DatabaseError::Mismatch(format!(
                "expected tiles {tiles:?} for goal {goal}, found tiles {:?} for goal {}",
                db.tiles(),
                db.goal()
            )));
        }
        if db.value(goal) != 0 {
            return Err(DatabaseError::Unsound(format!(
                "expected 0 moves at the goal, found {}: the entries are not this goal's",
                db.value(goal)
            )));
        }
        let seal = db.stored_seal();
        if seal.is_some_and(|s| crate::files::stamp_matches(path, &meta, s)) {
            return Ok(db);
        }
        if db.len() as u64 > PROVE_ON_LOAD {
            return Err(DatabaseError::Unproven {
                seconds: super::build_seconds(goal, tiles, 0),
            });
        }
        db.prove(&Limits::default(), 0)?;
        if let Some(s) = seal {
            crate::files::write_stamp(path, &meta, s);
        }
        Ok(db)
    }
}

/// The most entries a database file may have to be proven as it is loaded (rebuilt and
/// compared: 8,388,608 entries take about a second here); a larger file npuzzle did not
/// write is refused until proven ([`DatabaseError::Unproven`]).
pub const PROVE_ON_LOAD: u64 = 1 << 23;

//! The build cache: each build (program, diagnostics, what else it read) is an entry, a
//! folder named by its key, in `.clings/cache` (see [`crate::course::Course::cache_dir`]).
//! It holds at most [`DEFAULT_BOUND`] bytes of entries (`CLINGS_BUILD_CACHE_BYTES`), the
//! least recently used evicted first; `CLINGS_BUILD_CACHE=off` keeps every build of a run
//! in a folder of its own, removed when the run ends.
//!
//! Several clings may share one cache (two shards of a class on one machine, watch mode
//! and `clings test`), and a build is run long after it is found (a tournament's players):
//! whoever uses an entry holds a shared `flock` on its folder for as long as it does (an
//! [`Executable`]), and an entry is evicted only under an exclusive one, taken without
//! waiting. An entry in use is never evicted; one found but not yet locked is looked at
//! again once it is. Publishing is by rename, so nobody sees half an entry.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result, bail};
use nix::fcntl::{Flock, FlockArg};

use crate::util::file_identity::Identity;
use crate::util::parallel;
use crate::util::{digest, temp};

/// The most the entries of a cache hold together, by default: a course's builds many times
/// over (a UBSan build of the test course's `sum` takes 450 KiB, its runtime linked in),
/// and a few builds of a program with large initialised arrays.
pub const DEFAULT_BOUND: u64 = 256 << 20;
/// Sets the bound, in bytes (`K`, `M`, `G` for KiB, MiB, GiB).
pub const BOUND_VARIABLE: &str = "CLINGS_BUILD_CACHE_BYTES";
/// `off`: nothing is kept from one run to the next (a CI job's).
pub const SWITCH_VARIABLE: &str = "CLINGS_BUILD_CACHE";

const PROGRAM: &str = "program";
const DIAGNOSTICS: &str = "diagnostics.txt";
/// What else a build read (headers), with their digests: a change to one rebuilds.
const DEPENDENCIES: &str = "dependencies.txt";
/// Taken by whoever evicts: one at a time, each seeing what the one before left.
const TRIM_LOCK: &str = ".trim.lock";
/// Folders an entry is made in, and moved to while it is removed; one older than
/// [`LEFTOVER_AGE`] is a killed clings's, removed by whoever trims.
const STAGING: &str = ".build-";
const EVICTED: &str = ".evicted-";
const LEFTOVER_AGE: Duration = Duration::from_secs(3600);

/// Where builds are kept, and how much of them.
pub struct BuildCache {
    dir: PathBuf,
    bound: u64,
    /// With the cache off, the folder of this run's builds, removed with it.
    own: Option<tempfile::TempDir>,
    /// Whether this clings added a build to the cache: builds in use, its own or another
    /// clings', may have kept its trims over the bound, so it trims again at its end, once
    /// its own are let go (see [`Drop`]). Of two clings sharing the cache, the one that
    /// ends last trims when neither holds a build.
    published: AtomicBool,
}

/// A program clings built, kept where it is for as long as this (or a clone) lives: in
/// the cache, under a shared lock that keeps it from eviction; or, not kept in the cache
/// (larger than the bound, the cache off), in a folder of its own removed with the last
/// clone. Or an executable clings did not build (an engine's), kept by nobody.
#[derive(Clone)]
pub struct Executable {
    path: PathBuf,
    /// What keeps the program there: the entry's lock, or its own folder.
    _hold: Option<Arc<dyn std::any::Any + Send + Sync>>,
}

impl Executable {
    /// An executable that clings did not build, at `path`.
    pub fn at(path: PathBuf) -> Executable {
        Executable { path, _hold: None }
    }
}

impl std::ops::Deref for Executable {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.path.fmt(f)
    }
}

/// The result of compiling one source file.
pub struct Build {
    /// `None` when the compiler failed.
    pub program: Option<Executable>,
    /// Everything the compiler printed, with its colour codes, and why clings stopped it.
    pub diagnostics: String,
}

impl Build {
    /// A build that did not happen, for the reason given.
    pub fn refused(diagnostics: String) -> Build {
        Build {
            program: None,
            diagnostics,
        }
    }
}

impl BuildCache {
    /// The cache in `dir` as the environment sets it: bounded by `CLINGS_BUILD_CACHE_BYTES`
    /// (default [`DEFAULT_BOUND`]); with `CLINGS_BUILD_CACHE=off`, a folder of this run's
    /// own instead (`dir` is not asked for, and nothing is written there).
    pub fn from_env(dir: impl FnOnce() -> PathBuf) -> Result<BuildCache> {
        let bound = match std::env::var(BOUND_VARIABLE) {
            Ok(text) if !text.trim().is_empty() => parse_bytes(&text).with_context(|| {
                format!("{BOUND_VARIABLE}={text}: not a size (268435456, 256M, 1G)")
            })?,
            _ => DEFAULT_BOUND,
        };
        let switch = std::env::var(SWITCH_VARIABLE).unwrap_or_default();
        let own = match switch.trim() {
            "" | "on" => None,
            "off" => Some(temp::dir_to_run_from(
                "clings-builds-",
                "a folder for this run's builds",
            )?),
            other => bail!("{SWITCH_VARIABLE}={other}: `on` (the default) or `off`"),
        };
        Ok(BuildCache {
            dir: own
                .as_ref()
                .map_or_else(dir, |own| own.path().to_path_buf()),
            bound,
            own,
            published: AtomicBool::new(false),
        })
    }

    /// A cache in `dir` holding at most `bound` bytes.
    #[cfg(test)]
    fn new(dir: &Path, bound: u64) -> BuildCache {
        BuildCache {
            dir: dir.to_path_buf(),
            bound,
            own: None,
            published: AtomicBool::new(false),
        }
    }

    /// The folder of the entries.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn entry(&self, key: &str) -> PathBuf {
        self.dir.join(key)
    }

    /// The build under `key`, if there is one and every file it read besides the source
    /// is as it was then, locked in the cache for as long as its program is used and
    /// marked as used now. An entry that cannot be read (half removed, damaged) is no
    /// build: the source is compiled again and the entry replaced.
    pub fn lookup(&self, key: &str) -> Option<Build> {
        let entry = self.entry(key);
        let folder = File::open(&entry).ok()?;
        let lock = Flock::lock(folder, FlockArg::LockShared).ok()?;
        // Evicted between the open and the lock: moved away, maybe replaced since.
        if !same_file(&lock, &entry) {
            return None;
        }
        let diagnostics = std::fs::read_to_string(entry.join(DIAGNOSTICS)).ok()?;
        let dependencies = std::fs::read_to_string(entry.join(DEPENDENCIES)).unwrap_or_default();
        if !dependencies_unchanged(&dependencies) {
            return None;
        }
        // The folder's time is when the entry was last used: the least recent goes first.
        // Someone else's cache (a shared course) may refuse it; the entry serves anyway.
        let _ = lock.set_modified(SystemTime::now());
        let program = entry.join(PROGRAM);
        Some(Build {
            program: program.is_file().then(|| Executable {
                path: program,
                _hold: Some(Arc::new(lock)),
            }),
            diagnostics,
        })
    }

    /// Puts a build under `key` (`program` as the compiler left it, copied: the compile's
    /// user keeps no hold on the cache) and returns it, locked. A build larger than the
    /// bound is kept in a folder of its own until its program is let go. If another run
    /// published the same key first, its build is just as good and is kept; one whose
    /// dependencies changed is replaced unless it is in use, when this build is kept apart.
    pub fn publish(
        &self,
        key: &str,
        program: Option<&Path>,
        diagnostics: &str,
        dependencies: &str,
    ) -> Result<Build> {
        let size = program
            .map(|program| std::fs::metadata(program).map(|meta| meta.len()))
            .transpose()
            .context("cannot read the program the compiler wrote")?
            .unwrap_or(0)
            + (diagnostics.len() + dependencies.len()) as u64;
        let staging = match size > self.bound {
            true => temp::dir("clings-build-", "a build directory")?,
            false => std::fs::create_dir_all(&self.dir)
                .and_then(|()| {
                    tempfile::Builder::new()
                        .prefix(STAGING)
                        .tempdir_in(&self.dir)
                })
                .with_context(|| {
                    format!("cannot create a build directory in {}", self.dir.display())
                })?,
        };
        if let Some(program) = program {
            std::fs::copy(program, staging.path().join(PROGRAM))
                .context("cannot store the program in the build cache")?;
        }
        std::fs::write(staging.path().join(DIAGNOSTICS), diagnostics)
            .and_then(|()| std::fs::write(staging.path().join(DEPENDENCIES), dependencies))
            .context("cannot write the compiler's diagnostics to the build cache")?;
        if size > self.bound {
            return Ok(own_build(staging, None, program.is_some(), diagnostics));
        }
        // Locked before it is published: no trim can take it before it is used.
        let lock = File::open(staging.path())
            .ok()
            .and_then(|folder| Flock::lock(folder, FlockArg::LockShared).ok())
            .context("cannot lock a build in the build cache")?;
        let entry = self.entry(key);
        let published = std::fs::rename(staging.path(), &entry).is_ok() || {
            // The key is taken. By the same build from another clings (grading identical
            // submissions at once): as good as this one, and maybe running, so it stays.
            if let Some(build) = self.lookup(key) {
                return Ok(build);
            }
            // By a build whose dependencies changed: evicted (unless in use) before this
            // one takes its place, so no reader finds the entry half removed.
            self.evict(&entry) && std::fs::rename(staging.path(), &entry).is_ok()
        };
        if !published {
            return Ok(own_build(
                staging,
                Some(lock),
                program.is_some(),
                diagnostics,
            ));
        }
        // Renamed away: nothing is left for the guard to remove.
        let _ = staging.keep();
        self.published.store(true, Ordering::Relaxed);
        self.trim();
        Ok(Build {
            program: program.map(|_| Executable {
                path: entry.join(PROGRAM),
                _hold: Some(Arc::new(lock)),
            }),
            diagnostics: diagnostics.to_string(),
        })
    }

    /// Evicts the least recently used entries that no one uses until the cache holds at
    /// most its bound, and what killed clings left behind.
    fn trim(&self) {
        let Ok(lock) = File::create(self.dir.join(TRIM_LOCK)) else {
            return;
        };
        let Ok(_trimming) = Flock::lock(lock, FlockArg::LockExclusive) else {
            return;
        };
        let Ok(listing) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut entries = Vec::new();
        for found in listing.flatten() {
            let name = found.file_name().to_string_lossy().into_owned();
            let Ok(meta) = found.metadata() else { continue };
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            if is_key(&name) && meta.is_dir() {
                entries.push((used, entry_size(&found.path()), found.path()));
            } else if (name.starts_with(STAGING) || name.starts_with(EVICTED))
                && used.elapsed().is_ok_and(|age| age > LEFTOVER_AGE)
                && exclusive(&found.path()).is_some()
            {
                let _ = std::fs::remove_dir_all(found.path());
            }
        }
        let mut total: u64 = entries.iter().map(|(_, size, _)| size).sum();
        entries.sort();
        for (_, size, entry) in entries {
            if total <= self.bound {
                break;
            }
            if self.evict(&entry) {
                total -= size;
            }
        }
    }

    /// Removes `entry` if no one uses it; whether it did.
    fn evict(&self, entry: &Path) -> bool {
        let Some(lock) = exclusive(entry) else {
            return false;
        };
        if !same_file(&lock, entry) {
            return false;
        }
        let name = entry.file_name().unwrap_or_default().to_string_lossy();
        let aside = self
            .dir
            .join(format!("{EVICTED}{name}-{}", std::process::id()));
        if std::fs::rename(entry, &aside).is_err() {
            return false;
        }
        drop(lock);
        let _ = std::fs::remove_dir_all(&aside);
        true
    }
}

impl Drop for BuildCache {
    /// Builds in use may have kept the cache over its bound: trimmed again now that this
    /// clings' are let go.
    fn drop(&mut self) {
        if self.published.load(Ordering::Relaxed) && self.own.is_none() {
            self.trim();
        }
    }
}

/// A build kept in a folder of its own, `staging`, removed once its program is let go;
/// `lock`, when it is in the cache's folder, keeps it from whoever removes leftovers.
fn own_build(
    staging: tempfile::TempDir,
    lock: Option<Flock<File>>,
    has_program: bool,
    diagnostics: &str,
) -> Build {
    let path = staging.path().join(PROGRAM);
    Build {
        program: has_program.then(|| Executable {
            path,
            _hold: Some(Arc::new((lock, staging))),
        }),
        diagnostics: diagnostics.to_string(),
    }
}

/// `folder` locked for its removal, if no one uses it.
fn exclusive(folder: &Path) -> Option<Flock<File>> {
    let folder = File::open(folder).ok()?;
    Flock::lock(folder, FlockArg::LockExclusiveNonblock).ok()
}

/// Whether the folder `lock` holds open is the one at `path` now.
fn same_file(lock: &File, path: &Path) -> bool {
    match (lock.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(held), Ok(there)) => held.dev() == there.dev() && held.ino() == there.ino(),
        _ => false,
    }
}

/// The bytes an entry's files take.
fn entry_size(entry: &Path) -> u64 {
    [PROGRAM, DIAGNOSTICS, DEPENDENCIES]
        .iter()
        .filter_map(|file| std::fs::symlink_metadata(entry.join(file)).ok())
        .map(|meta| meta.len())
        .sum()
}

/// Whether `name` is an entry's: a key, as [`digest::of`] writes them.
fn is_key(name: &str) -> bool {
    name.len() == digest::of(&[]).len() && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A number of bytes, with `K`, `M` or `G` (optionally `KiB`, `MiB`, `GiB`) for 1024,
/// 1024², 1024³ of them.
fn parse_bytes(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let shift = match unit.trim().trim_end_matches("iB") {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return None,
    };
    number.parse::<u64>().ok()?.checked_mul(1 << shift)
}

/// Whether every file of a build's record of dependencies (`<digest> <path>` lines, see
/// `toolchain::record_dependencies`) is as it was; one recorded with no digest never is.
///
/// A file found as recorded is remembered for the rest of the process with its identity:
/// the same file with the same identity has not changed since (its contents cannot change
/// without its ctime), and is not read again (a grading looks its builds up twice, the
/// header files of each build one after another).
pub(super) fn dependencies_unchanged(recorded: &str) -> bool {
    static FOUND_AS_RECORDED: Mutex<BTreeMap<String, Identity>> = Mutex::new(BTreeMap::new());
    recorded.lines().all(|line| {
        let Some((digest, path)) = line.split_once(' ') else {
            return false;
        };
        if digest == "-" {
            return false;
        }
        let Some(identity) = Identity::of_path(Path::new(path)) else {
            return false;
        };
        if parallel::lock(&FOUND_AS_RECORDED).get(line) == Some(&identity) {
            return true;
        }
        let unchanged = std::fs::read(path).is_ok_and(|bytes| digest::of(&[&bytes]) == digest);
        // Read after its identity: a change made meanwhile gives it another one.
        if unchanged {
            parallel::lock(&FOUND_AS_RECORDED).insert(line.to_string(), identity);
        }
        unchanged
    })
}

/// The cache entries being compiled by this process. A second compile of an entry (a
/// grading that needs a build `clings test` is still making in the background) waits for
/// the first and takes its build from the cache rather than running gcc again.
static COMPILING: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
static COMPILED: Condvar = Condvar::new();

/// The right to compile one cache entry, held for the whole compile.
pub struct Claim(PathBuf);

impl Claim {
    /// Claims `key` in `cache`; if another thread holds it, waits until that compile ends
    /// and returns `None`, to look in the cache again (a compile that was stopped or failed
    /// to run leaves nothing there, and the entry is then free to claim).
    pub fn take(cache: &BuildCache, key: &str) -> Option<Claim> {
        let entry = cache.entry(key);
        let mut compiling = parallel::lock(&COMPILING);
        if compiling.insert(entry.clone()) {
            return Some(Claim(entry));
        }
        while compiling.contains(&entry) {
            compiling = parallel::wait(&COMPILED, compiling);
        }
        None
    }
}

impl Drop for Claim {
    fn drop(&mut self) {
        parallel::lock(&COMPILING).remove(&self.0);
        COMPILED.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dependency found as recorded is not read again while it keeps its identity; a
    /// change to it is seen however it was made, even one that kept its size and put its
    /// modification time back.
    #[test]
    fn a_dependency_found_unchanged_is_read_again_only_once_it_changed() {
        let dir = tempfile::tempdir().unwrap();
        let header = dir.path().join("header.h");
        std::fs::write(&header, "int a;\n").unwrap();
        let recorded = format!("{} {}\n", digest::of(&[b"int a;\n"]), header.display());
        assert!(dependencies_unchanged(&recorded));
        assert!(dependencies_unchanged(&recorded));
        let modified = std::fs::metadata(&header).unwrap().modified().unwrap();
        // Past the tick of the kernel's coarse clock, which file times may be taken from.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&header, "int b;\n").unwrap();
        File::options()
            .write(true)
            .open(&header)
            .unwrap()
            .set_modified(modified)
            .unwrap();
        assert!(!dependencies_unchanged(&recorded));
        std::fs::write(&header, "int a;\n").unwrap();
        assert!(dependencies_unchanged(&recorded));
        std::fs::remove_file(&header).unwrap();
        assert!(!dependencies_unchanged(&recorded));
    }

    #[test]
    fn a_second_compile_of_an_entry_waits_for_the_first_then_looks_in_the_cache_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Arc::new(BuildCache::new(dir.path(), DEFAULT_BOUND));
        let first = Claim::take(&cache, "entry").expect("nobody holds it");
        drop(Claim::take(&cache, "other").expect("another entry is not held up"));
        let (said, heard) = std::sync::mpsc::channel();
        let waiting = Arc::clone(&cache);
        // Not scoped: a waiter that never wakes must fail the test, not hang it.
        std::thread::spawn(move || said.send(Claim::take(&waiting, "entry").is_none()).unwrap());
        let patience = Duration::from_millis(200);
        assert!(
            heard.recv_timeout(patience).is_err(),
            "waits while it is held"
        );
        drop(first);
        let answer = heard.recv_timeout(Duration::from_secs(10));
        assert_eq!(answer, Ok(true), "once it is let go: None, to look again");
        assert!(
            Claim::take(&cache, "entry").is_some(),
            "and it is free to claim"
        );
    }

    /// A key, as the cache names entries.
    fn key(number: u8) -> String {
        digest::of(&[&[number]])
    }

    /// A program of `bytes` bytes in `dir`, for [`BuildCache::publish`].
    fn program(dir: &Path, name: &str, bytes: usize) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, vec![b'x'; bytes]).unwrap();
        path
    }

    /// The entries in the cache at `dir`, by key.
    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name != TRIM_LOCK)
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_published_build_stays_while_the_same_build_is_published_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache_dir = dir.path().join("cache");
        let cache = BuildCache::new(&cache_dir, DEFAULT_BOUND);
        let (first, second) = (
            program(dir.path(), "first", 5),
            program(dir.path(), "second", 6),
        );
        let entry = cache_dir.join(key(1));
        drop(cache.publish(&key(1), Some(&first), "", "").unwrap());
        // Another clings grading an identical submission may be running this program:
        // the same key published again leaves it in place, and gives it.
        let again = cache.publish(&key(1), Some(&second), "", "").unwrap();
        assert_eq!(
            again.program.as_deref(),
            Some(entry.join(PROGRAM).as_path())
        );
        assert_eq!(std::fs::read(entry.join(PROGRAM)).unwrap(), b"xxxxx");
        drop(again);
        // A build whose dependencies changed since is replaced...
        std::fs::write(entry.join(DEPENDENCIES), "- /a/header/not/trusted.h\n").unwrap();
        let replaced = cache.publish(&key(1), Some(&second), "", "").unwrap();
        assert_eq!(std::fs::read(entry.join(PROGRAM)).unwrap(), b"xxxxxx");
        // ...unless it is in use: then the new build is kept apart, for as long as it is.
        std::fs::write(entry.join(DEPENDENCIES), "- /a/header/not/trusted.h\n").unwrap();
        let apart = cache.publish(&key(1), Some(&first), "", "").unwrap();
        let path = apart.program.as_deref().unwrap().to_path_buf();
        assert_ne!(path, entry.join(PROGRAM));
        assert_eq!(std::fs::read(&path).unwrap(), b"xxxxx");
        assert_eq!(
            std::fs::read(&*replaced.program.unwrap()).unwrap(),
            b"xxxxxx"
        );
        drop(apart);
        assert!(!path.exists(), "removed once let go");
        // Nothing staged or set aside is left behind.
        assert_eq!(entries(&cache_dir), [key(1)]);
    }

    #[test]
    fn a_damaged_cache_entry_is_no_build() {
        let dir = tempfile::tempdir().unwrap();
        let cache = BuildCache::new(dir.path(), DEFAULT_BOUND);
        std::fs::create_dir_all(dir.path().join(key(1)).join(DIAGNOSTICS)).unwrap();
        assert!(
            cache.lookup(&key(1)).is_none(),
            "diagnostics that are a directory"
        );
        assert!(cache.lookup(&key(2)).is_none());
    }

    /// The cache keeps at most its bound: the least recently used entries (published or
    /// found the longest ago) go first, never one in use; a build larger than the bound
    /// is used, then gone.
    #[test]
    fn the_least_recently_used_entries_not_in_use_go_first() {
        let dir = tempfile::tempdir().unwrap();
        let cache_dir = dir.path().join("cache");
        let cache = BuildCache::new(&cache_dir, 1000);
        let size = |name: &str| entry_size(&cache_dir.join(name));
        let publish = |number: u8, bytes: usize| {
            // The folders' times tell the order: a little apart.
            std::thread::sleep(Duration::from_millis(5));
            let built = program(dir.path(), "built", bytes);
            cache
                .publish(&key(number), Some(&built), "warning", "")
                .unwrap()
        };
        drop(publish(1, 300));
        drop(publish(2, 300));
        let in_use = publish(3, 300);
        assert_eq!(entries(&cache_dir).len(), 3);
        // 1 was published first, but found again since: 2 is the least recently used.
        std::thread::sleep(Duration::from_millis(5));
        drop(cache.lookup(&key(1)).unwrap());
        drop(publish(4, 300));
        assert_eq!(entries(&cache_dir), sorted([key(1), key(3), key(4)]));
        // 3 is the oldest now, but in use: 1 and 4 go.
        drop(publish(5, 600));
        assert_eq!(entries(&cache_dir), sorted([key(3), key(5)]));
        let total: u64 = entries(&cache_dir).iter().map(|name| size(name)).sum();
        assert!(total <= 1000, "{total}");
        assert!(cache.lookup(&key(5)).is_some(), "the newest is found");
        drop(in_use);

        // Larger than the bound: used, not kept, and the others stay.
        let big = publish(6, 2000);
        let path = big.program.as_deref().unwrap().to_path_buf();
        assert!(!path.starts_with(&cache_dir), "{}", path.display());
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 2000);
        drop(big);
        assert!(!path.exists());
        assert_eq!(entries(&cache_dir), sorted([key(3), key(5)]));
    }

    fn sorted<const N: usize>(mut names: [String; N]) -> [String; N] {
        names.sort();
        names
    }

    #[test]
    fn a_bound_is_bytes_or_kib_mib_gib() {
        assert_eq!(parse_bytes("268435456"), Some(256 << 20));
        assert_eq!(parse_bytes("256M"), Some(256 << 20));
        assert_eq!(parse_bytes("256MiB"), Some(256 << 20));
        assert_eq!(parse_bytes(" 1G "), Some(1 << 30));
        assert_eq!(parse_bytes("64K"), Some(64 << 10));
        assert_eq!(parse_bytes("0"), Some(0));
        for wrong in ["", "M", "256 MB", "-1", "1.5G", "99999999999999999999G"] {
            assert_eq!(parse_bytes(wrong), None, "{wrong:?}");
        }
    }
}

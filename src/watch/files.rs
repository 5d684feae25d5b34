//! Noticing saves: file notifications (inotify, FSEvents) on the exercises' directories,
//! backed by polling, both fed through one debounce so a save is reported once, after
//! the editor has finished writing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::events::Event;

/// Quiet time after the last change before a save is reported: editors save in several
/// steps (truncate and write, or write a temporary file and rename it), a few ms apart.
const DEBOUNCE: Duration = Duration::from_millis(100);
/// How often the files are looked at when notifications are off or may be missed. A few
/// `stat` calls; cheap enough to keep as a safety net even when notifications work.
const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// What identifies one saved version of a file: any save changes the modification time,
/// and a save by rename changes the inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Fingerprint {
    /// `None` when the file does not exist (or is between the steps of a save).
    pub fn of(path: &Path) -> Option<Fingerprint> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).ok()?;
        Some(Fingerprint {
            len: meta.len(),
            modified: meta.modified().ok(),
            inode: meta.ino(),
        })
    }
}

/// How saves are noticed, for the screen to say.
#[derive(Clone, Debug)]
pub enum How {
    /// Not at all: the student presses `r` (`--manual`).
    Manual,
    Notify,
    /// Polling only: asked for, or because notifications could not be set up (the reason).
    Poll(Option<String>),
}

/// A change seen by one of the two sources.
enum Change {
    /// A file notification: more may follow while the editor writes.
    Notified(PathBuf),
    /// A difference found by polling.
    Polled(PathBuf),
}

/// Keeps the notification watcher alive; saves arrive as [`Event::Saved`].
pub struct FileWatch {
    _watcher: Option<RecommendedWatcher>,
    pub how: How,
}

/// Starts noticing saves of `files` (absolute paths): notifications unless `poll_only`,
/// and polling always, which catches what notifications miss (WSL's /mnt, network drives).
pub fn watch(files: Vec<PathBuf>, poll_only: bool, events: Sender<Event>) -> Result<FileWatch> {
    let (raw_tx, raw_rx) = mpsc::channel();
    thread::Builder::new()
        .name("debounce".into())
        .spawn(move || debounce(raw_rx, events))
        .context("cannot start the thread that debounces saves")?;
    let (watcher, how) = if poll_only {
        (None, How::Poll(None))
    } else {
        match notify_watcher(&files, raw_tx.clone()) {
            Ok(watcher) => (Some(watcher), How::Notify),
            Err(err) => (None, How::Poll(Some(format!("{err:#}")))),
        }
    };
    thread::Builder::new()
        .name("poll".into())
        .spawn(move || poll(files, raw_tx))
        .context("cannot start the thread that looks for saves")?;
    Ok(FileWatch {
        _watcher: watcher,
        how,
    })
}

/// Watches the directories, not the files: a save by rename replaces the file, and a
/// watch on the old file would see nothing after the first save.
fn notify_watcher(files: &[PathBuf], raw: Sender<Change>) -> Result<RecommendedWatcher> {
    let wanted = files.to_vec();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        // An error here (e.g. an event queue overflow) only loses events, which the
        // polling catches.
        let Ok(event) = event else { return };
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in event.paths {
            if wanted.contains(&path) {
                let _ = raw.send(Change::Notified(path));
            }
        }
    })
    .context("file notifications are unavailable")?;
    let mut dirs: Vec<&Path> = files.iter().filter_map(|file| file.parent()).collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        watcher
            .watch(dir, RecursiveMode::NonRecursive)
            .with_context(|| format!("cannot watch {} for changes", dir.display()))?;
    }
    Ok(watcher)
}

fn poll(files: Vec<PathBuf>, raw: Sender<Change>) {
    let mut seen: Vec<Option<Fingerprint>> = files.iter().map(|f| Fingerprint::of(f)).collect();
    loop {
        thread::sleep(POLL_INTERVAL);
        for (file, seen) in files.iter().zip(&mut seen) {
            let now = Fingerprint::of(file);
            if now != *seen {
                *seen = now;
                if raw.send(Change::Polled(file.clone())).is_err() {
                    return;
                }
            }
        }
    }
}

/// Reports a path once no notification about it has come for [`DEBOUNCE`]. Polling only
/// starts that wait: when it sees a save that notifications already reported, waiting
/// longer would only add to the time until the result shows.
fn debounce(raw: Receiver<Change>, events: Sender<Event>) {
    let mut due: HashMap<PathBuf, Instant> = HashMap::new();
    loop {
        let next = due.values().min().copied();
        let received = match next {
            None => raw.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(at) => raw.recv_timeout(at.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(Change::Notified(path)) => {
                due.insert(path, Instant::now() + DEBOUNCE);
            }
            Ok(Change::Polled(path)) => {
                due.entry(path).or_insert_with(|| Instant::now() + DEBOUNCE);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let now = Instant::now();
        let ready: Vec<PathBuf> = due
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(path, _)| path.clone())
            .collect();
        for path in ready {
            due.remove(&path);
            if events.send(Event::Saved(path)).is_err() {
                return;
            }
        }
    }
}

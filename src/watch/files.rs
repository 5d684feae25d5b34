//! Noticing saves: file notifications (inotify, FSEvents) on the exercises' directories,
//! backed by polling, both fed through one debounce so a save is reported once, after
//! the editor has finished writing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result};
use notify::event::{AccessKind, AccessMode, ModifyKind, RenameMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::events::Event;

/// Quiet time after the last change before a save is reported: editors save in several
/// steps (truncate and write, or write a temporary file and rename it), a few ms apart.
/// Every ms of it is a ms before the result shows; a save cut in two by a longer pause
/// is graded twice, the first grading stopped by the second save.
const DEBOUNCE: Duration = Duration::from_millis(30);
/// The wait once the file is known to be whole (closed after writing, or renamed into
/// place): only for a last step that comes at once, such as setting its permissions.
const SETTLE: Duration = Duration::from_millis(3);
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
    /// The file was closed after writing, or renamed into place: the save is whole.
    Finished(PathBuf),
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
        let finished = match event.kind {
            EventKind::Access(AccessKind::Close(AccessMode::Write))
            | EventKind::Modify(ModifyKind::Name(RenameMode::To)) => true,
            // A rename comes as its two halves (from, to) too; its pair of paths would
            // count the file renamed away as renamed into place.
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)) | EventKind::Access(_) => {
                return;
            }
            _ => false,
        };
        for path in event.paths {
            if wanted.contains(&path) {
                let _ = raw.send(match finished {
                    true => Change::Finished(path),
                    false => Change::Notified(path),
                });
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

/// Reports saves from the raw changes, each once its wait is over.
fn debounce(raw: Receiver<Change>, events: Sender<Event>) {
    let mut waits = Waits::default();
    loop {
        let received = match waits.next_due() {
            None => raw.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(at) => raw.recv_timeout(at.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(change) => waits.add(change, Instant::now()),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        for path in waits.take_due(Instant::now()) {
            if events.send(Event::Saved(path)).is_err() {
                return;
            }
        }
    }
}

/// The debounce itself: a path is due once no notification about it has come for
/// [`DEBOUNCE`], or [`SETTLE`] after the file was closed or renamed into place. Polling
/// only starts that wait: when it sees a save that notifications already reported,
/// waiting longer would only delay the result.
#[derive(Default)]
struct Waits {
    due: HashMap<PathBuf, Instant>,
}

impl Waits {
    fn add(&mut self, change: Change, now: Instant) {
        match change {
            Change::Notified(path) => {
                self.due.insert(path, now + DEBOUNCE);
            }
            Change::Finished(path) => {
                self.due.insert(path, now + SETTLE);
            }
            Change::Polled(path) => {
                self.due.entry(path).or_insert(now + DEBOUNCE);
            }
        }
    }

    fn next_due(&self) -> Option<Instant> {
        self.due.values().min().copied()
    }

    fn take_due(&mut self, now: Instant) -> Vec<PathBuf> {
        let ready: Vec<PathBuf> = self
            .due
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(path, _)| path.clone())
            .collect();
        for path in &ready {
            self.due.remove(path);
        }
        ready
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> PathBuf {
        PathBuf::from("/course/exercises/a.c")
    }

    #[test]
    fn a_burst_of_notifications_is_one_save_after_the_last() {
        let mut waits = Waits::default();
        let start = Instant::now();
        let ms = |n| start + Duration::from_millis(n);
        for n in [0, 20, 40, 60] {
            waits.add(Change::Notified(file()), ms(n));
            assert!(waits.take_due(ms(n)).is_empty());
        }
        assert_eq!(waits.next_due(), Some(ms(60) + DEBOUNCE));
        assert!(waits.take_due(ms(60) + DEBOUNCE / 2).is_empty());
        assert_eq!(waits.take_due(ms(60) + DEBOUNCE), [file()]);
        assert_eq!(waits.next_due(), None, "reported once");
    }

    #[test]
    fn a_save_known_to_be_whole_is_reported_at_once_unless_writing_goes_on() {
        let mut waits = Waits::default();
        let start = Instant::now();
        waits.add(Change::Notified(file()), start);
        waits.add(Change::Finished(file()), start + SETTLE);
        assert_eq!(waits.next_due(), Some(start + SETTLE * 2));
        assert_eq!(waits.take_due(start + SETTLE * 2), [file()]);
        // Writing again right after the close: the whole wait again.
        waits.add(Change::Finished(file()), start);
        waits.add(Change::Notified(file()), start + SETTLE / 2);
        assert!(waits.take_due(start + SETTLE * 2).is_empty());
        assert_eq!(waits.next_due(), Some(start + SETTLE / 2 + DEBOUNCE));
    }

    /// What the notifications say about one step of a save: whether it left the file
    /// whole (`Finished`) at some point, waiting up to 300 ms for each change.
    fn finished_after(step: impl FnOnce(&Path)) -> bool {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.c");
        std::fs::write(&file, "old\n").unwrap();
        let (raw_tx, raw_rx) = mpsc::channel();
        let _watcher = notify_watcher(std::slice::from_ref(&file), raw_tx).unwrap();
        step(&file);
        let mut finished = false;
        while let Ok(change) = raw_rx.recv_timeout(Duration::from_millis(300)) {
            finished |= matches!(change, Change::Finished(path) if path == file);
        }
        finished
    }

    #[test]
    fn a_write_closed_or_a_rename_into_place_is_a_whole_save() {
        assert!(finished_after(|file| std::fs::write(file, "new\n").unwrap()));
        assert!(finished_after(|file| {
            let staged = file.with_extension("tmp");
            std::fs::write(&staged, "new\n").unwrap();
            std::fs::rename(&staged, file).unwrap();
        }));
        // Renamed away (an editor's backup): not a save of it.
        assert!(!finished_after(|file| {
            std::fs::rename(file, file.with_extension("c~")).unwrap();
        }));
    }

    #[test]
    fn polling_does_not_delay_a_notified_save() {
        let mut waits = Waits::default();
        let start = Instant::now();
        waits.add(Change::Notified(file()), start);
        waits.add(Change::Polled(file()), start + DEBOUNCE / 2);
        assert_eq!(waits.take_due(start + DEBOUNCE), [file()]);
        // A save only polling saw waits like any other.
        waits.add(Change::Polled(file()), start + DEBOUNCE * 2);
        assert_eq!(waits.next_due(), Some(start + DEBOUNCE * 3));
    }

    #[test]
    fn the_debounce_thread_reports_saves() {
        let (raw_tx, raw_rx) = mpsc::channel();
        let (events_tx, events_rx) = mpsc::channel();
        thread::spawn(move || debounce(raw_rx, events_tx));
        raw_tx.send(Change::Notified(file())).unwrap();
        let event = events_rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(matches!(event, Event::Saved(path) if path == file()));
    }

    #[test]
    fn fingerprints_change_with_every_save() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.c");
        assert_eq!(Fingerprint::of(&file), None);
        std::fs::write(&file, "int main(void) { return 0; }\n").unwrap();
        let first = Fingerprint::of(&file);
        // Same length, new content, saved by rename: a new inode.
        let staged = dir.path().join("a.c.tmp");
        std::fs::write(&staged, "int main(void) { return 1; }\n").unwrap();
        std::fs::rename(&staged, &file).unwrap();
        assert_ne!(Fingerprint::of(&file), first);
    }
}

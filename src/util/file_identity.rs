//! What tells one file from another, and a file from the same file changed.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A file's identity: its device and inode, and what a change of its contents or
/// permissions changes, its ctime among them, which no program can set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    device: u64,
    inode: u64,
    size: u64,
    mode: u32,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl Identity {
    pub fn of(meta: &std::fs::Metadata) -> Identity {
        Identity {
            device: meta.dev(),
            inode: meta.ino(),
            size: meta.size(),
            mode: meta.mode(),
            modified: (meta.mtime(), meta.mtime_nsec()),
            changed: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// The identity of the file at `path`, following links.
    pub fn of_path(path: &Path) -> Option<Identity> {
        std::fs::metadata(path).ok().map(|meta| Identity::of(&meta))
    }

    /// The identity of what is at `path`, a link itself rather than what it leads to.
    pub fn of_entry(path: &Path) -> Option<Identity> {
        std::fs::symlink_metadata(path)
            .ok()
            .map(|meta| Identity::of(&meta))
    }
}

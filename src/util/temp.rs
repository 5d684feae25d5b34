//! clings' temporary folders (where a compile happens, where a run's program is copied):
//! made in the system's temporary directory, with an error that names it and the fix
//! when it cannot hold them (read-only, full, or mounted `noexec`).

use std::path::Path;

use anyhow::{Result, anyhow, bail};
use tempfile::TempDir;

/// What to do when the temporary directory does not work, said after every such error.
const ADVICE: &str = "set TMPDIR to a folder you may write to and run programs from, \
    for example `mkdir -p ~/.cache/tmp && export TMPDIR=~/.cache/tmp`";

/// A fresh folder `PREFIX…` in the temporary directory, for `purpose` ("a folder to
/// compile in").
pub fn dir(prefix: &str, purpose: &str) -> Result<TempDir> {
    let parent = std::env::temp_dir();
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(&parent)
        .map_err(|err| {
            anyhow!(
                "cannot create {purpose} in the temporary directory {}: {err}; {ADVICE}",
                parent.display()
            )
        })
}

/// [`dir`], for a folder programs are started from: refused, with the fix, on a file
/// system mounted `noexec`, where starting them would fail with a bare "permission denied".
pub fn dir_to_run_from(prefix: &str, purpose: &str) -> Result<TempDir> {
    let dir = dir(prefix, purpose)?;
    if mounted_noexec(dir.path()) {
        bail!(
            "cannot run programs from the temporary directory {}: it is mounted noexec; {ADVICE}",
            std::env::temp_dir().display()
        );
    }
    Ok(dir)
}

fn mounted_noexec(path: &Path) -> bool {
    nix::sys::statvfs::statvfs(path)
        .is_ok_and(|fs| fs.flags().contains(nix::sys::statvfs::FsFlags::ST_NOEXEC))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_made_in_the_temporary_directory_and_removed_when_dropped() {
        let dir = dir_to_run_from("clings-test-", "a test folder").unwrap();
        let path = dir.path().to_path_buf();
        assert!(path.starts_with(std::env::temp_dir()) && path.is_dir());
        drop(dir);
        assert!(!path.exists());
    }
}

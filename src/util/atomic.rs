//! Writing a file all at once: through a temporary file in the same directory and a
//! rename, so a crash, a full disk or a concurrent reader never sees half a file.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

pub fn write(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut temp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    temp.write_all(contents)
        .and_then(|()| set_usual_mode(temp.as_file()))
        .and_then(|()| temp.as_file().sync_all())
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path)
        .with_context(|| format!("cannot replace {}", path.display()))?;
    Ok(())
}

/// A temporary file is made readable by its owner alone (0600); the file it becomes gets
/// the mode any new file gets (0666 less the umask), so that a CI runner's own user can
/// read, and upload, a report that clings wrote under `sudo`.
#[cfg(unix)]
fn set_usual_mode(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o666 & !umask()))
}

#[cfg(not(unix))]
fn set_usual_mode(_file: &std::fs::File) -> std::io::Result<()> {
    Ok(())
}

/// The process's umask, read from /proc (Linux 4.7): setting it to read it back would
/// change it, for a moment, for every thread. The usual 022 where it cannot be read.
#[cfg(unix)]
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status
                .lines()
                .find_map(|line| line.strip_prefix("Umask:"))?;
            u32::from_str_radix(line.trim(), 8).ok()
        })
        .unwrap_or(0o022)
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_written_file_has_the_mode_of_a_new_file_not_a_temporary_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        super::write(&path, b"{}").unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !super::umask());
        // Readable by others under the usual umask (022), as a CI runner's user needs.
        if super::umask() & 0o044 == 0 {
            assert_eq!(mode & 0o044, 0o044, "{mode:o}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"{}");
    }
}

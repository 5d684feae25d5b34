//! A case's input as the program's stdin: a sealed copy in memory where the system has
//! one, so that no run can write to the fixture through `/proc/self/fd/0` (a descriptor
//! of the fixture itself could be reopened for writing by a program of the same user).

use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result, bail};

/// Opens the case's input, which must be a regular file (a directory opens, but reading
/// fails), as a read-only stream positioned at its start.
pub fn open(path: &Path) -> Result<File> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {}", path.display()))?;
    if !meta.is_file() {
        bail!("cannot read {}: not a regular file", path.display());
    }
    sealed_copy(file).with_context(|| format!("cannot read {}", path.display()))
}

/// A memory file with the input's bytes that nobody can change any more (`F_SEAL_WRITE`
/// and the size seals), even through a new descriptor opened for writing.
#[cfg(target_os = "linux")]
fn sealed_copy(mut file: File) -> std::io::Result<File> {
    use std::io::{Seek, SeekFrom};
    use std::os::fd::AsRawFd;

    let mut memory =
        super::memory_file(c"clings-input", libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING)?;
    std::io::copy(&mut file, &mut memory)?;
    memory.seek(SeekFrom::Start(0))?;
    let seals = libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE;
    // SAFETY: fcntl on a descriptor we own.
    if unsafe { libc::fcntl(memory.as_raw_fd(), libc::F_ADD_SEALS, seals) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(memory)
}

/// Elsewhere runs are not isolated and the program could open the fixture by its path
/// anyway: the file itself, read-only.
#[cfg(not(target_os = "linux"))]
fn sealed_copy(file: File) -> std::io::Result<File> {
    Ok(file)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::fd::AsRawFd;

    #[test]
    fn the_input_cannot_be_written_back_through_proc() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("01.in");
        std::fs::write(&path, "B W\n").unwrap();
        let mut input = open(&path).unwrap();
        let reopened = std::fs::OpenOptions::new()
            .append(true)
            .open(format!("/proc/self/fd/{}", input.as_raw_fd()));
        if let Ok(mut writer) = reopened {
            assert!(writer.write_all(b"forged").is_err());
        }
        let mut text = String::new();
        input.read_to_string(&mut text).unwrap();
        assert_eq!(text, "B W\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "B W\n");
    }

    #[test]
    fn the_input_is_sealed_against_writes_resizing_and_unsealing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("01.in");
        std::fs::write(&path, "B W\n").unwrap();
        let input = open(&path).unwrap();
        // SAFETY: fcntl on a descriptor the test owns.
        let seals = unsafe { libc::fcntl(input.as_raw_fd(), libc::F_GET_SEALS) };
        let all = libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW | libc::F_SEAL_WRITE;
        assert_eq!(seals, all);
    }

    #[test]
    fn a_directory_is_not_an_input() {
        let dir = tempfile::tempdir().unwrap();
        let err = open(dir.path()).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }
}

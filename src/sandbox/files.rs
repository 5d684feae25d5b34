//! Files a run is given and files it leaves. Only the helper can reach the scratch
//! directory of an isolated run, so both travel through one descriptor, the run's file
//! channel (a memfd of clings'): clings packs the given files into it, the helper places
//! them before the program starts, and once every process of the run is gone it packs
//! what the program left under the names asked for in their place.
//!
//! The channel holds entries one after another: a line with the name, a line with the
//! state and the length, then that many bytes.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// A file a run leaves, as the helper found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Left {
    File(Vec<u8>),
    Missing,
    /// A directory, a link, a pipe or a device: nothing the program wrote as a file.
    NotAFile,
    /// Larger than a run may write.
    TooBig,
}

impl Left {
    fn state(&self) -> &'static str {
        match self {
            Left::File(_) => "file",
            Left::Missing => "missing",
            Left::NotAFile => "not_a_file",
            Left::TooBig => "too_big",
        }
    }
}

/// Whether `name` may name a file of a run: a plain name in its working directory (no
/// path, no hidden file), as a course writes it.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.contains(['/', '\n', '\0'])
}

/// A new channel holding the files a run is given, read from the course.
pub fn channel(given: &[(String, PathBuf)]) -> Result<File> {
    let channel = memfd()?;
    let mut entries = Vec::with_capacity(given.len());
    for (name, path) in given {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        entries.push((name.clone(), Left::File(bytes)));
    }
    write_entries(&channel, &entries)?;
    Ok(channel)
}

/// What `channel` holds: the files given, or after the run those left.
pub fn read(channel: &File) -> Result<Vec<(String, Left)>> {
    let length = channel
        .metadata()
        .context("cannot read the run's files")?
        .len();
    let mut bytes = vec![0; length as usize];
    channel
        .read_exact_at(&mut bytes, 0)
        .context("cannot read the run's files")?;
    parse(&bytes)
}

/// In the helper, before the program starts: the given files in `dir`, the run's working
/// directory, owned by the run's user.
pub fn place(channel: &File, dir: &Path, uid: Option<u32>) -> Result<()> {
    for (name, left) in read(channel)? {
        let Left::File(content) = left else {
            bail!("given file {name} has no content");
        };
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW)
            .open(dir.join(&name))
            .with_context(|| format!("cannot create {name}"))?;
        file.write_all(&content)
            .with_context(|| format!("cannot write {name}"))?;
        if let Some(uid) = uid {
            std::os::unix::fs::fchown(&file, Some(uid), Some(uid))
                .with_context(|| format!("cannot give {name} to the run's user"))?;
        }
    }
    Ok(())
}

/// In the helper, once the run is over: the files named, from `dir`, each at most `limit`
/// bytes, packed into `channel` in place of what it held.
pub fn collect(channel: &File, dir: &Path, names: &[String], limit: u64) -> Result<()> {
    let entries: Vec<(String, Left)> = names
        .iter()
        .map(|name| (name.clone(), look_at(&dir.join(name), limit)))
        .collect();
    channel
        .set_len(0)
        .context("cannot empty the file channel")?;
    write_entries(channel, &entries)
}

/// What is at `path` (a name the program may have made anything of: a link, a pipe, a
/// hard link to a file of someone else's), never following a link or blocking on a pipe.
fn look_at(path: &Path, limit: u64) -> Left {
    let opened = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path);
    let file = match opened {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Left::Missing,
        Err(_) => return Left::NotAFile,
    };
    let Ok(meta) = file.metadata() else {
        return Left::NotAFile;
    };
    if !meta.is_file() || meta.nlink() != 1 {
        return Left::NotAFile;
    }
    let mut content = Vec::new();
    match file.take(limit + 1).read_to_end(&mut content) {
        Ok(_) if content.len() as u64 > limit => Left::TooBig,
        Ok(_) => Left::File(content),
        Err(_) => Left::NotAFile,
    }
}

fn write_entries(channel: &File, entries: &[(String, Left)]) -> Result<()> {
    let mut bytes = Vec::new();
    for (name, left) in entries {
        anyhow::ensure!(valid_name(name), "{name:?} cannot name a run's file");
        let content: &[u8] = match left {
            Left::File(content) => content,
            _ => &[],
        };
        bytes.extend_from_slice(format!("{name}\n{} {}\n", left.state(), content.len()).as_bytes());
        bytes.extend_from_slice(content);
    }
    channel
        .write_all_at(&bytes, 0)
        .context("cannot write the file channel")
}

fn parse(mut bytes: &[u8]) -> Result<Vec<(String, Left)>> {
    let mut entries = Vec::new();
    let line = |bytes: &mut &[u8]| -> Result<String> {
        let end = bytes
            .iter()
            .position(|&byte| byte == b'\n')
            .context("a file entry is cut short")?;
        let text = std::str::from_utf8(&bytes[..end]).context("a file entry is not text")?;
        *bytes = &bytes[end + 1..];
        Ok(text.to_string())
    };
    while !bytes.is_empty() {
        let name = line(&mut bytes)?;
        anyhow::ensure!(valid_name(&name), "{name:?} cannot name a run's file");
        let header = line(&mut bytes)?;
        let (state, length) = header
            .split_once(' ')
            .context("a file entry has no length")?;
        let length: usize = length.parse().context("a file entry has a bad length")?;
        anyhow::ensure!(length <= bytes.len(), "a file entry is cut short");
        let (content, rest) = bytes.split_at(length);
        bytes = rest;
        let left = match state {
            "file" => Left::File(content.to_vec()),
            "missing" => Left::Missing,
            "not_a_file" => Left::NotAFile,
            "too_big" => Left::TooBig,
            other => bail!("a file entry has the unknown state {other:?}"),
        };
        entries.push((name, left));
    }
    Ok(entries)
}

fn memfd() -> Result<File> {
    super::memory_file(c"clings-files", libc::MFD_CLOEXEC).context("cannot create the file channel")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_a_channel() {
        let channel = memfd().unwrap();
        let entries = vec![
            ("replay.txt".to_string(), Left::File(b"7 7\n\0\n".to_vec())),
            ("gone.txt".to_string(), Left::Missing),
            ("dir".to_string(), Left::NotAFile),
            ("huge".to_string(), Left::TooBig),
            ("empty".to_string(), Left::File(Vec::new())),
        ];
        write_entries(&channel, &entries).unwrap();
        assert_eq!(read(&channel).unwrap(), entries);
    }

    #[test]
    fn names_are_plain_names_in_the_working_directory() {
        assert!(valid_name("replay.txt"));
        for bad in [
            "",
            ".hidden",
            "../x",
            "a/b",
            "a\nb",
            "a\0b",
            &"x".repeat(256),
        ] {
            assert!(!valid_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn given_files_are_placed_and_left_files_found_as_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("source");
        std::fs::write(&source, "3 4\n").unwrap();
        let work = dir.path().join("work");
        std::fs::create_dir(&work).unwrap();
        let channel = channel(&[("in.txt".to_string(), source.clone())]).unwrap();
        place(&channel, &work, None).unwrap();
        assert_eq!(std::fs::read(work.join("in.txt")).unwrap(), b"3 4\n");
        std::os::unix::fs::symlink(&source, work.join("link")).unwrap();
        std::fs::hard_link(work.join("in.txt"), work.join("twin")).unwrap();
        std::fs::write(work.join("big"), [b'x'; 11]).unwrap();
        std::fs::write(work.join("small"), [b'x'; 10]).unwrap();
        std::fs::create_dir(work.join("dir")).unwrap();
        let names: Vec<String> = ["in.txt", "link", "big", "small", "dir", "none"]
            .map(String::from)
            .to_vec();
        collect(&channel, &work, &names, 10).unwrap();
        let left: Vec<Left> = read(&channel)
            .unwrap()
            .into_iter()
            .map(|(_, left)| left)
            .collect();
        assert_eq!(
            left,
            [
                // A hard link is a file of two names: the program did not write it.
                Left::NotAFile,
                Left::NotAFile,
                Left::TooBig,
                Left::File(b"xxxxxxxxxx".to_vec()),
                Left::NotAFile,
                Left::Missing,
            ]
        );
    }

    #[test]
    fn a_pipe_left_is_not_a_file_and_never_waited_on() {
        // Opened for reading without O_NONBLOCK, a FIFO would wait for a writer that never
        // comes, and the helper with it.
        let work = tempfile::tempdir().unwrap();
        let fifo = work.path().join("out.txt");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
        let (sender, looked) = std::sync::mpsc::channel();
        std::thread::spawn(move || sender.send(look_at(&fifo, 10)));
        let left = looked.recv_timeout(std::time::Duration::from_secs(5));
        assert_eq!(left, Ok(Left::NotAFile), "the FIFO was waited on");
    }
}

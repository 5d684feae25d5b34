//! A Gomocup engine given as a folder (`gomocup:DIR`, `--engine DIR`), as Gomocup ships a
//! brain: a zip of its executable, `pbrain-NAME`, and the files it reads beside it (its
//! weights, its config). The engine plays from a copy of the folder, made once, which it
//! reads as its working directory and cannot change, and has a folder of its own to write
//! (`INFO folder`) that lasts as long as the copy (a whole tournament); both go when the
//! copy does. The copy is what its identity is made of (the digest of its files), so that
//! every shard of a tournament plays the same engine or none.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::{Context, Result, bail};

use crate::sandbox::Folders;
use crate::util::digest;

/// The most an engine's folder may hold: a strong engine's network is tens of megabytes.
const FOLDER_BYTES: u64 = 1 << 30;

/// The most files it may hold.
const FOLDER_FILES: usize = 10_000;

/// The longest folder the referee passes on in `INFO folder`.
const KEEP_PATH: usize = 200;

/// An engine's folder, copied, and the folder it keeps.
#[derive(Debug)]
pub struct EngineFolder {
    /// Holds both folders: removed, with them, when the engine is done.
    _dir: tempfile::TempDir,
    /// The copy of the engine's folder.
    read: PathBuf,
    /// Its own folder to write.
    keep: PathBuf,
    /// The engine's executable, in the copy.
    pub program: PathBuf,
    /// The digest of the folder's files, their paths and contents.
    pub digest: String,
    /// Held for each game the engine plays: one at a time, as under a Gomocup manager,
    /// so that its folder is one game's at a time (and, when clings is root, the user of
    /// that game's run).
    busy: Mutex<()>,
}

impl EngineFolder {
    /// Copies the engine's folder `dir`, and finds its executable there: the one
    /// `pbrain-*` executable, else the one executable file.
    pub fn copy(dir: &Path) -> Result<EngineFolder> {
        let files = files(dir)?;
        let scratch = tempfile::Builder::new()
            .prefix("clings-engine-")
            .tempdir()
            .context("cannot create a folder for the engine")?;
        // Every run's user must get through it to the two folders (when clings is root,
        // each run has a user of its own); what a run may reach there the sandbox says.
        let (read, keep) = (scratch.path().join("engine"), scratch.path().join("folder"));
        for folder in [scratch.path(), &read, &keep] {
            std::fs::create_dir_all(folder)
                .and_then(|()| std::fs::set_permissions(folder, mode(0o755)))
                .with_context(|| format!("cannot create {}", folder.display()))?;
        }
        std::fs::set_permissions(&keep, mode(0o700))
            .with_context(|| format!("cannot create {}", keep.display()))?;
        let mut parts = Vec::new();
        let mut executables = Vec::new();
        for (relative, is_dir) in &files {
            let (from, to) = (dir.join(relative), read.join(relative));
            if *is_dir {
                std::fs::create_dir(&to)
                    .and_then(|()| std::fs::set_permissions(&to, mode(0o755)))
                    .with_context(|| format!("cannot copy {}", from.display()))?;
                continue;
            }
            let bytes =
                std::fs::read(&from).with_context(|| format!("cannot read {}", from.display()))?;
            let executable = std::fs::metadata(&from)
                .with_context(|| format!("cannot read {}", from.display()))?
                .permissions()
                .mode()
                & 0o111
                != 0;
            std::fs::write(&to, &bytes)
                .and_then(|()| {
                    std::fs::set_permissions(&to, mode(if executable { 0o755 } else { 0o644 }))
                })
                .with_context(|| format!("cannot copy {}", from.display()))?;
            if executable && !relative.to_string_lossy().contains('/') {
                executables.push(relative.clone());
            }
            parts.push(relative.to_string_lossy().into_owned().into_bytes());
            parts.push(digest::of(&[&bytes]).into_bytes());
        }
        let program = read.join(program_of(dir, &executables)?);
        let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        Ok(EngineFolder {
            _dir: scratch,
            read,
            keep,
            program,
            digest: digest::of(&parts),
            busy: Mutex::new(()),
        })
    }

    /// Waits until no other game has the engine, and has it for one: the game's until
    /// the guard goes.
    pub fn for_a_game(&self) -> MutexGuard<'_, ()> {
        self.busy.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What the engine's runs are given: the copy to read, as the working directory, and
    /// the folder to keep.
    pub fn folders(&self) -> Folders<'_> {
        Folders {
            read: &self.read,
            keep: &self.keep,
        }
    }

    /// The folder the engine keeps, as it is told it (`INFO folder`): at its host path in
    /// every tier, on the referee's one line.
    pub fn keep(&self) -> Result<&str> {
        self.keep
            .to_str()
            .filter(|path| !path.contains(['\n', '\r', '#']) && path.len() < KEEP_PATH)
            .with_context(|| {
                format!(
                    "cannot tell an engine its folder {}: set TMPDIR to a shorter path of \
                     plain characters",
                    self.keep.display()
                )
            })
    }
}

fn mode(bits: u32) -> std::fs::Permissions {
    std::fs::Permissions::from_mode(bits)
}

/// The files and folders under `dir` (paths relative to it, whether each is a folder),
/// outer first and in order; refused if it holds a symbolic link (which could show the
/// engine what is outside), anything but files and folders, or too much.
fn files(dir: &Path) -> Result<Vec<(PathBuf, bool)>> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::new()];
    let mut bytes = 0u64;
    while let Some(relative) = pending.pop() {
        let here = dir.join(&relative);
        let mut entries: Vec<_> = std::fs::read_dir(&here)
            .with_context(|| format!("cannot read the engine's folder {}", here.display()))?
            .collect::<Result<_, _>>()
            .with_context(|| format!("cannot read the engine's folder {}", here.display()))?;
        entries.sort_by_key(|entry| entry.file_name());
        let mut folders = Vec::new();
        for entry in entries {
            let path = relative.join(entry.file_name());
            let meta = entry
                .metadata()
                .with_context(|| format!("cannot read {}", entry.path().display()))?;
            let kind = meta.file_type();
            if kind.is_symlink() {
                bail!(
                    "{}: a symbolic link in the engine's folder: an engine's folder holds its \
                     own files only (copy what the link points to in its place)",
                    entry.path().display()
                );
            }
            if !kind.is_dir() && !kind.is_file() {
                bail!(
                    "{}: neither a file nor a folder, in the engine's folder",
                    entry.path().display()
                );
            }
            bytes += meta.len();
            if bytes > FOLDER_BYTES || found.len() >= FOLDER_FILES {
                bail!(
                    "{}: the engine's folder holds more than {} MiB or {FOLDER_FILES} files: \
                     give a folder with the engine's files only",
                    dir.display(),
                    FOLDER_BYTES >> 20
                );
            }
            if kind.is_dir() {
                folders.push(path.clone());
            }
            found.push((path, kind.is_dir()));
        }
        // Taken from the end: the first folder's files come next.
        pending.extend(folders.into_iter().rev());
    }
    Ok(found)
}

/// The engine's executable among the executables at the top of its folder `dir`: the one
/// named `pbrain-*`, as Gomocup names brains, else the only one.
fn program_of(dir: &Path, executables: &[PathBuf]) -> Result<PathBuf> {
    let named = |path: &&PathBuf| path.to_string_lossy().starts_with("pbrain-");
    let brains: Vec<&PathBuf> = executables.iter().filter(named).collect();
    let candidates: Vec<&PathBuf> = match brains.is_empty() {
        true => executables.iter().collect(),
        false => brains,
    };
    match candidates.as_slice() {
        [program] => Ok(program.to_path_buf()),
        [] => bail!(
            "{}: no executable file in the engine's folder: a Gomocup engine's folder holds \
             its executable (pbrain-NAME) beside its files",
            dir.display()
        ),
        several => {
            let names: Vec<String> = several
                .iter()
                .map(|path| path.to_string_lossy().into_owned())
                .collect();
            bail!(
                "{}: which is the engine? the folder holds {} executables ({}): keep one \
                 pbrain-NAME there, the engine's",
                dir.display(),
                names.len(),
                names.join(", ")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str, bits: u32) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        std::fs::set_permissions(path, mode(bits)).unwrap();
    }

    #[test]
    fn the_copy_finds_the_brain_and_its_digest_covers_every_file() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("pbrain-pela"), "#!/bin/sh\n", 0o755);
        write(&dir.path().join("helper.sh"), "#!/bin/sh\n", 0o755);
        write(&dir.path().join("data/weights.bin"), "1 2 3", 0o644);
        let engine = EngineFolder::copy(dir.path()).unwrap();
        assert!(engine.program.ends_with("engine/pbrain-pela"));
        let weights = std::fs::read_to_string(engine.read.join("data/weights.bin")).unwrap();
        assert_eq!(weights, "1 2 3");
        assert!(Path::new(engine.keep().unwrap()).is_dir());
        assert_eq!(
            EngineFolder::copy(dir.path()).unwrap().digest,
            engine.digest
        );
        // Another byte in a file beside the engine is another engine.
        write(&dir.path().join("data/weights.bin"), "1 2 4", 0o644);
        assert_ne!(
            EngineFolder::copy(dir.path()).unwrap().digest,
            engine.digest
        );
        // Gone with the engine.
        let copy = engine.read.clone();
        drop(engine);
        assert!(!copy.exists());
    }

    #[test]
    fn a_folder_whose_engine_cannot_be_told_or_that_links_out_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        write(&dir.path().join("notes.txt"), "", 0o644);
        let none = EngineFolder::copy(dir.path()).unwrap_err();
        assert!(
            format!("{none:#}").contains("no executable file"),
            "{none:#}"
        );
        write(&dir.path().join("a"), "", 0o755);
        write(&dir.path().join("b"), "", 0o755);
        let two = EngineFolder::copy(dir.path()).unwrap_err();
        assert!(
            format!("{two:#}").contains("2 executables (a, b)"),
            "{two:#}"
        );
        write(&dir.path().join("pbrain-b"), "", 0o755);
        assert!(
            EngineFolder::copy(dir.path()).is_ok(),
            "pbrain-b is the one"
        );
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("passwd")).unwrap();
        let link = EngineFolder::copy(dir.path()).unwrap_err();
        assert!(format!("{link:#}").contains("symbolic link"), "{link:#}");
    }
}

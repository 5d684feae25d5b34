//! The course that clings comes with, for `clings init` and the solutions it hands out:
//! built into the binary when clings is built to be shipped (see `build.rs`), else read
//! from the repository it was built from. A student who installed clings has no copy of
//! the repository.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::course::INFO_FILE;

include!(concat!(env!("OUT_DIR"), "/builtin_course.rs"));

/// The repository this clings was built from.
const REPOSITORY: &str = env!("CARGO_MANIFEST_DIR");

/// A folder that holds the course (no solution among its files when built in): the files
/// built into clings, written under `scratch`, or the repository itself.
pub fn folder(scratch: &Path) -> Result<PathBuf> {
    if !EMBEDDED {
        let repository = PathBuf::from(REPOSITORY);
        if !repository.join(INFO_FILE).is_file() {
            bail!(
                "this clings was built from {REPOSITORY}, which holds no course any more: \
                 give one with --from COURSE, or install a released clings, which has its \
                 course built in"
            );
        }
        return Ok(repository);
    }
    for (path, contents) in COURSE {
        let path = scratch.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, contents)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(scratch.to_path_buf())
}

/// The reference solution at `path` in the course (`solutions/print_board.c`), if the
/// course has one there.
pub fn solution(path: &Path) -> Option<Vec<u8>> {
    if !EMBEDDED {
        return std::fs::read(Path::new(REPOSITORY).join(path)).ok();
    }
    SOLUTIONS
        .iter()
        .find(|(known, _)| Path::new(known) == path)
        .map(|&(_, contents)| contents.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_course_comes_without_any_known_wrong_program() {
        let scratch = tempfile::tempdir().unwrap();
        let folder = folder(scratch.path()).unwrap();
        assert!(folder.join("info.toml").is_file());
        assert!(folder.join("skeletons/print_board.c").is_file());
        assert!(solution(Path::new("solutions/print_board.c")).is_some());
        assert!(solution(Path::new("solutions/wrong/print_board")).is_none());
        if EMBEDDED {
            assert!(!folder.join("solutions").exists(), "a solution is unpacked");
            assert!(SOLUTIONS.iter().all(|(path, _)| !path.contains("wrong")));
        }
    }
}

//! The repository's course, built into the binary (see `build.rs`): `clings init` makes a
//! student's folder from it, and its reference solutions are handed out from here once
//! earned. A student who installed clings has no copy of the repository.

use std::path::Path;

use anyhow::{Context, Result};

include!(concat!(env!("OUT_DIR"), "/builtin_course.rs"));

/// Writes the course's own files (no solution among them) under `dir`.
pub fn unpack(dir: &Path) -> Result<()> {
    for (path, contents) in COURSE {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, contents)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The reference solution at `path` in the course (`solutions/print_board.c`), if the
/// course has one there.
pub fn solution(path: &Path) -> Option<&'static [u8]> {
    SOLUTIONS
        .iter()
        .find(|(known, _)| Path::new(known) == path)
        .map(|&(_, contents)| contents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_course_is_built_in_without_any_solution() {
        assert!(COURSE.iter().any(|(path, _)| *path == "info.toml"));
        assert!(
            COURSE
                .iter()
                .any(|(path, _)| *path == "skeletons/print_board.c")
        );
        assert!(
            COURSE
                .iter()
                .all(|(path, _)| !path.starts_with("solutions")),
            "a solution is among the course's files"
        );
        assert!(solution(Path::new("solutions/print_board.c")).is_some());
        assert!(
            SOLUTIONS.iter().all(|(path, _)| !path.contains("wrong")),
            "a known-wrong program is built in"
        );
    }
}

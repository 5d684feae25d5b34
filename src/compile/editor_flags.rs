//! `compile_flags.txt`: tells clangd (and so VS Code, Vim, Emacs, Helix with it) how the
//! exercises are compiled, so editors show the same warnings as the grader instead of
//! complaining about an unknown standard.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::course::Course;

pub const FLAGS_FILE: &str = "compile_flags.txt";

/// Writes `compile_flags.txt` in the course directory when it is missing or out of date;
/// returns its path when it was (re)written.
pub fn write_flags(course: &Course) -> Result<Option<PathBuf>> {
    let path = course.root.join(FLAGS_FILE);
    let wanted = contents(course);
    if std::fs::read_to_string(&path).is_ok_and(|existing| existing == wanted) {
        return Ok(None);
    }
    std::fs::write(&path, wanted).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Some(path))
}

/// One argument per line. Only the course's flags: the sanitizers change nothing clangd
/// checks, and clang rejects some of gcc's (`-fsanitize=bounds-strict`). `-xc` makes
/// headers C, not C++.
fn contents(course: &Course) -> String {
    std::iter::once("-xc")
        .chain(course.defaults.flags.iter().map(String::as_str))
        .map(|flag| format!("{flag}\n"))
        .collect()
}

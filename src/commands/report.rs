//! `clings report GRADES_JSON... --html FILE`: the class report of gradebooks already
//! written (merged shards, an earlier run), drawn without grading again.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::atomic;
use crate::commands::Exit;
use crate::gradebook::Gradebook;
use crate::i18n::Lang;
use crate::report::html;

pub fn run(gradebooks: &[PathBuf], page: &Path, lang: Lang) -> Result<Exit> {
    let book = Gradebook::load_merged(gradebooks)?;
    write_page(&book, page, lang)?;
    Ok(Exit::Success)
}

/// Writes the class report of `book` to `path` and says where.
pub fn write_page(book: &Gradebook, path: &Path, lang: Lang) -> Result<()> {
    atomic::write(path, html::page(book, lang).as_bytes())?;
    println!(
        "drew the class report of {} students into {}",
        book.students.len(),
        path.display()
    );
    Ok(())
}

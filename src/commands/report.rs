//! `clings report GRADES_JSON... --html FILE`: the class report of gradebooks already
//! written (merged shards, an earlier run), drawn without grading again.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::commands::Exit;
use crate::report::html;
use crate::store::gradebook::Gradebook;
use crate::util::atomic;
use crate::util::i18n::Lang;

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

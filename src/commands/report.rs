//! `clings report GRADES_JSON... --html FILE`: the class report of gradebooks already
//! written (merged shards, an earlier run), drawn without grading again.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::commands::Exit;
use crate::report::html;
use crate::store::gradebook::Gradebook;
use crate::util::atomic;
use crate::util::i18n::Lang;

/// Draw the class report of gradebooks already written (several are merged as
/// `grade --merge` does): no grading, no course needed.
#[derive(clap::Args)]
pub struct Args {
    /// The grades.json files.
    #[arg(required = true, value_name = "GRADES_JSON")]
    gradebooks: Vec<PathBuf>,
    /// Write the report, a self-contained HTML page, to FILE.
    #[arg(long, value_name = "FILE", required = true)]
    html: PathBuf,
    #[command(flatten)]
    page: Page,
}

/// How the class report is drawn, for `report` and `grade --html` alike.
#[derive(clap::Args)]
pub struct Page {
    /// The class report lists among the students to help first those below PERCENT of
    /// the total, 0 to 100 (besides those not started, missing a file or not compiling);
    /// the page says the figure it used.
    #[arg(long, value_name = "PERCENT", default_value_t = 50,
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub help_below: u32,
}

pub fn run(args: &Args, lang: Lang) -> Result<Exit> {
    let book = Gradebook::load_merged(&args.gradebooks)?;
    write_page(&book, &args.html, &args.page, lang)?;
    Ok(Exit::Success)
}

/// Writes the class report of `book` to `path` and says where.
pub fn write_page(book: &Gradebook, path: &Path, page: &Page, lang: Lang) -> Result<()> {
    atomic::write(path, html::page(book, page.help_below, lang).as_bytes())?;
    println!(
        "drew the class report of {} students into {}",
        book.students.len(),
        path.display()
    );
    Ok(())
}

use anyhow::Result;

use crate::app::App;
use crate::commands::Exit;
use crate::report::student;
use crate::util::term;

/// Put the original skeleton of an exercise back.
#[derive(clap::Args)]
pub struct Args {
    name: String,
    /// Do not ask for confirmation.
    #[arg(long, short)]
    yes: bool,
}

/// `clings reset NAME [--yes]`: the original skeleton back, after a confirmation.
pub fn run(app: &mut App, args: &Args) -> Result<Exit> {
    let (name, yes) = (args.name.as_str(), args.yes);
    let lang = app.lang;
    app.check_resettable(name)?;
    let file = app.course.exercise(name)?.path.clone();
    if !yes && !term::confirm(&student::reset_question(&file, lang), "--yes")? {
        println!("{}", student::reset_declined(lang));
        return Ok(Exit::Success);
    }
    app.reset(name)?;
    println!("{}", student::reset_done(&file, lang));
    Ok(Exit::Success)
}

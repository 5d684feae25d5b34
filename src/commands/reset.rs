use anyhow::Result;

use crate::app::App;
use crate::commands::Exit;
use crate::report::student;
use crate::util::term;

/// `clings reset NAME [--yes]`: the original skeleton back, after a confirmation.
pub fn run(app: &mut App, name: &str, yes: bool) -> Result<Exit> {
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

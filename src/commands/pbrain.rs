//! `clings pbrain PLAYER`: a lesson player as a Gomocup engine (a "pbrain", as piskvork
//! calls its brains), so that piskvork or a Gomocup manager can load a student's program.
//! The protocol is game/pbrain.rs's; see docs/gomocup.md.

use std::time::Duration;

use anyhow::{Result, bail};

use crate::app::App;
use crate::commands::Exit;
use crate::game::battle::{self, Arena, Entrant, Rules};
use crate::game::pbrain;
use crate::util::style;

/// Play a lesson player (C file, student's directory or course bot) as a Gomocup
/// engine: the Gomocup protocol on stdin and stdout, for piskvork or a Gomocup manager
/// (`START 15`, `BEGIN`, `TURN x,y`, `BOARD`, `INFO`, `ABOUT`, `END`).
#[derive(clap::Args)]
pub struct Args {
    /// The player, as for `battle`.
    player: String,
    /// The exercise whose limits it runs under (default: the first with a referee).
    #[arg(long)]
    exercise: Option<String>,
}

pub fn run(app: &App, args: &Args) -> Result<Exit> {
    let course = &app.course;
    let spec = args.player.as_str();
    let exercise = battle::refereed_exercise(course, args.exercise.as_deref())?;
    let entrant = Entrant::parse(course, spec)?;
    if let Entrant::Engine(path) = &entrant {
        bail!(
            "{} is already a Gomocup engine: pbrain plays a lesson player as one",
            path.display()
        );
    }
    let grader = match entrant.foreign(course) {
        true => app.grader_for_submissions()?,
        false => app.grader()?,
    };
    // The manager judges and times the game, under its rules: the arena only builds and
    // runs.
    let arena = Arena::new(&grader, exercise, Rules::default(), Duration::ZERO)?;
    let player = arena.player(&entrant, &style::one_line(spec))?;
    pbrain::serve(
        &arena,
        &player,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    )?;
    Ok(Exit::Success)
}

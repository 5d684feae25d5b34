mod app;
mod cli;
mod commands;
mod compare;
mod compile;
mod course;
mod diff;
mod embedded;
mod fixture;
mod grade;
mod i18n;
mod judge;
mod parallel;
mod report;
mod sandbox;
mod state;
mod style;
mod term;

use std::process::ExitCode;

use clap::Parser;
use nix::sys::signal::{SigHandler, Signal, signal};

use crate::app::App;
use crate::cli::{Cli, Command};
use crate::commands::Outcome;
use crate::i18n::Lang;

/// The exit status of a command stopped by Ctrl-C, as for shells: 128 + SIGINT.
const INTERRUPTED: i32 = 130;

fn main() -> ExitCode {
    // Inside the sandbox, clings is the helper that starts the student's program.
    if let Some(code) = sandbox::main_if_helper() {
        return code;
    }
    // Like any Unix filter, stop quietly when the reader goes away (`clings test | head`).
    // SAFETY: called before any thread exists; SIG_DFL is always a valid disposition.
    let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
    let cli = Cli::parse();
    style::init(cli.color);
    let lang = Lang::detect(cli.lang.map(Lang::from));
    // Student programs run in sessions of their own, out of reach of the terminal's
    // Ctrl-C: stop them here. A grading then unwinds by itself (removing its temporary
    // files); anything else ends at once, though never halfway through saving progress.
    let _ = ctrlc::set_handler(move || {
        if !sandbox::interrupt() {
            eprintln!("{}", lang.pick("interrupted", "已中断"));
            state::exit_when_saved(INTERRUPTED);
        }
    });
    match dispatch(cli, lang) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::from(1),
        Err(err) if err.downcast_ref::<sandbox::Interrupted>().is_some() => {
            eprintln!("{}", lang.pick("interrupted", "已中断"));
            ExitCode::from(INTERRUPTED as u8)
        }
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(cli: Cli, lang: Lang) -> anyhow::Result<Outcome> {
    let mut app = App::open(lang, cli.jobs, cli.require_isolation)?;
    match cli.command {
        None => commands::run::run(&mut app, "next"),
        Some(Command::List) => commands::list::run(&app),
        Some(Command::Run { name }) => commands::run::run(&mut app, &name),
        Some(Command::Hint { name, all }) => commands::hint::run(&mut app, name.as_deref(), all),
        Some(Command::Test { names, format }) => commands::test::run(&mut app, &names, format),
        Some(Command::Reset { name, yes }) => commands::reset::run(&mut app, &name, yes),
    }
}

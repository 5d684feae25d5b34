mod app;
mod cli;
mod commands;
mod compile;
mod course;
mod game;
mod grade;
mod mutants;
mod report;
mod sandbox;
mod store;
mod util;
mod verdict;
mod watch;

use std::process::ExitCode;

use clap::Parser;
use nix::sys::signal::{SigHandler, Signal, signal};

use crate::app::App;
use crate::cli::{Cli, Command};
use crate::commands::Exit;
use crate::grade::GraderOptions;
use crate::store::progress;
use crate::util::i18n::Lang;
use crate::util::{i18n, parallel, style, timings};

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
    let started = timings::start();
    let cli = Cli::parse();
    style::init(cli.color);
    let lang = Lang::detect(cli.lang.map(Lang::from));
    // Student programs run in sessions of their own, out of reach of the terminal's
    // Ctrl-C: stop them here. A grading then unwinds by itself (removing its temporary
    // files); anything else ends at once, though never halfway through saving progress.
    let _ = ctrlc::set_handler(move || {
        if !sandbox::interrupt() {
            eprintln!("{}", lang.pick("interrupted", "已中断"));
            progress::exit_when_saved(INTERRUPTED);
        }
    });
    let result = dispatch(cli, lang);
    timings::print(started);
    let code = match result {
        Ok(Exit::Success) => ExitCode::SUCCESS,
        Ok(Exit::Failure) => ExitCode::from(1),
        Ok(Exit::Stopped(signal)) => ExitCode::from((128 + signal) as u8),
        Err(err) if err.downcast_ref::<sandbox::Interrupted>().is_some() => {
            eprintln!("{}", lang.pick("interrupted", "已中断"));
            ExitCode::from(INTERRUPTED as u8)
        }
        // An error can quote the compiler, which quotes the student's source.
        Err(err) => {
            eprintln!(
                "{}{}",
                lang.pick("error: ", "错误："),
                style::visible(&i18n::error_text(&err, lang))
            );
            ExitCode::from(2)
        }
    };
    // Once all is said: the sandboxes kept for the command's runs end as clings' children.
    sandbox::end_warm_sandboxes();
    code
}

fn dispatch(cli: Cli, lang: Lang) -> anyhow::Result<Exit> {
    // A new course folder, made before there is any course to find.
    if let Some(Command::Init(args)) = &cli.command {
        return commands::init::run(args, lang);
    }
    // A gradebook holds all its report needs: no course to find.
    if let Some(Command::Report(args)) = &cli.command {
        return commands::report::run(args, lang);
    }
    let jobs = cli.jobs.unwrap_or_else(parallel::default_jobs);
    // The commands that grade the course's own exercises at once.
    if matches!(
        cli.command,
        None | Some(Command::Test(_) | Command::Run(_) | Command::Grade(_))
    ) {
        grade::start_sandboxes_early(jobs);
    }
    let mut app = App::open(
        lang,
        GraderOptions {
            jobs,
            require_isolation: cli.require_isolation,
            allow_unisolated: cli.allow_unisolated,
            lang,
        },
    )?;
    let exit = match &cli.command {
        None => watch::run(
            &mut app,
            watch::Options {
                manual: cli.manual,
                poll: cli.poll,
            },
        ),
        Some(Command::List) => commands::list::run(&app),
        Some(Command::Run(args)) => commands::run::run(&mut app, args),
        Some(Command::Hint(args)) => commands::hint::run(&mut app, args),
        Some(Command::Test(args)) => commands::test::run(&mut app, args),
        Some(Command::Grade(args)) => commands::grade::run(&app, args),
        Some(Command::Battle(args)) => commands::battle::run(&app, args),
        Some(Command::Tournament(args)) => commands::tournament::run(&app, args),
        Some(Command::Pbrain(args)) => commands::pbrain::run(&app, args),
        Some(Command::Reset(args)) => commands::reset::run(&mut app, args),
        Some(Command::Dev { command }) => command.run(&app),
        Some(Command::Init(_) | Command::Report(_)) => {
            unreachable!("done above, without a course")
        }
    };
    // A course this user may not write to: said once, whatever the command.
    if let Some(notice) = app.progress.unsaved_notice() {
        eprintln!("{}{notice}", lang.pick("warning: ", "警告："));
    }
    exit
}

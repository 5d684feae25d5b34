//! The instructor's commands: check the course, add a case, recompute expected outputs,
//! measure how strong the cases are.

pub mod bless;
pub mod check;
pub mod check_cache;
pub mod hint_coverage;
pub mod mutants;
pub mod new_case;

use anyhow::Result;

use crate::app::App;
use crate::commands::Exit;

/// Instructor tools: check the course, add cases, recompute expected outputs.
#[derive(clap::Subcommand)]
pub enum Command {
    Check(check::Args),
    /// Add a case whose expected output is computed by the reference solution.
    NewCase(new_case::Args),
    Bless(bless::Args),
    /// Measure how strong the cases are: grade mutants of the reference solution (one small
    /// change each), print the share the cases kill, and for each survivor an input that
    /// tells it from the reference.
    Mutants(mutants::Args),
}

impl Command {
    pub fn run(&self, app: &App) -> Result<Exit> {
        match self {
            Command::Check(args) => check::run(app, args),
            Command::NewCase(args) => new_case::run(app, args),
            Command::Bless(args) => bless::run(app, args),
            Command::Mutants(args) => mutants::run(app, args),
        }
    }
}

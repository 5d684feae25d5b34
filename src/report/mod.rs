//! Reports of graded exercises: for people (`human`) and for machines (`json`, `junit`,
//! `github`).

pub mod github;
pub mod human;
pub mod json;
pub mod junit;

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Human,
    Json,
    Junit,
    Github,
}

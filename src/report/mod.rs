//! Reports of graded exercises: for people (`human`) and for machines (`json`).

pub mod human;
pub mod json;

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Human,
    Json,
}

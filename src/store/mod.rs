//! What clings keeps between runs: a student's progress, a class's gradebook.

pub mod gradebook;
pub mod progress;

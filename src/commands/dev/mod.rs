//! The instructor's commands: check the course, add a case, recompute expected outputs.

pub mod bless;
pub mod check;
pub mod new_case;

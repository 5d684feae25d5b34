//! The instructor's commands: check the course, add a case, recompute expected outputs,
//! measure how strong the cases are.

pub mod bless;
pub mod check;
pub mod check_cache;
pub mod mutants;
pub mod new_case;

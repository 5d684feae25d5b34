//! How strong a course's cases are (`clings dev mutants`): mutants of a reference solution
//! (`mutate`), built together into one program where they can be (`schema`), and made-up
//! inputs that tell a survivor from the reference (`input_search`).

pub mod input_search;
pub mod mutate;
pub mod reach;
pub mod schema;

//! Compiling a C program: the toolchain and its cache (`toolchain`), and the flags an
//! editor is told so that it warns as the grader does (`editor_flags`).

pub mod editor_flags;
pub mod toolchain;

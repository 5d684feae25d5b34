//! Compiling a C program: the toolchain (`toolchain`), the cache of its builds (`cache`),
//! and the flags an editor is told so that it warns as the grader does (`editor_flags`).

pub mod cache;
pub mod editor_flags;
pub mod toolchain;

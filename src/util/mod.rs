//! Leaf utilities: they import nothing else of clings, and every layer may use them.

pub mod atomic;
pub mod csv_cell;
pub mod digest;
pub mod file_identity;
pub mod i18n;
pub mod parallel;
pub mod shard;
pub mod style;
pub mod temp;
pub mod term;
pub mod timings;
pub mod toml_error;

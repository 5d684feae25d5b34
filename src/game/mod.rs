//! Games between programs: one battle, a class tournament and its standings.

pub mod battle;
pub mod standings;
pub mod tournament;

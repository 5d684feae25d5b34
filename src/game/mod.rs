//! Games between programs: one battle, a lesson player as a Gomocup brain, a class tournament and its standings.

pub mod battle;
pub mod pbrain;
pub mod standings;
pub mod tournament;

//! Games between programs: one battle, a lesson player as a Gomocup brain, a class tournament, its standings, and a shard's games checked.

pub mod battle;
pub mod engine_folder;
pub mod openings;
pub mod pbrain;
pub mod renju;
pub mod standings;
pub mod tournament;
pub mod verify;

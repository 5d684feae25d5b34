//! A slice of a class, so that one can be graded or played on several machines at once.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Slice `index` (1-based) of `count`: the students whose position in name order is
/// `index - 1` modulo `count`. Every machine computes the same slices. Written as `K/N`,
/// as given on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| format!("{text:?} is not K/N (e.g. 2/4)"))?;
        let parse = |n: &str| {
            n.trim()
                .parse::<usize>()
                .map_err(|_| format!("{n:?} is not a number"))
        };
        let shard = Shard {
            index: parse(index)?,
            count: parse(count)?,
        };
        if shard.count == 0 || shard.index == 0 || shard.index > shard.count {
            return Err(format!(
                "shard {text} does not exist: K must be between 1 and N"
            ));
        }
        Ok(shard)
    }
}

impl TryFrom<String> for Shard {
    type Error = String;

    fn try_from(text: String) -> Result<Shard, String> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    pub fn contains(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_every_position_exactly_once() {
        let shards: Vec<Shard> = ["1/3", "2/3", "3/3"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        for position in 0..20 {
            assert_eq!(
                shards
                    .iter()
                    .filter(|shard| shard.contains(position))
                    .count(),
                1
            );
        }
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}

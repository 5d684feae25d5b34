//! A class tournament's games and results: who plays whom with which colours (a round
//! robin, each pair twice with colours swapped), the record of every game, and the
//! document `tournament.json` that shards write and `--merge` combines.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use crate::game::battle::{Record, Rules, Stone};
use crate::game::standings::{self, Game, GameResult};
use crate::game::verify;
use crate::util::csv_cell;
use crate::util::i18n::{Lang, count};
use crate::util::shard::Shard;

pub const JSON_FILE: &str = "tournament.json";
pub const CSV_FILE: &str = "standings.csv";

/// One game to play: its number in the schedule (from 1, as the log, `tournament.json`,
/// the page and the replay's file `games/0001.txt` call it), the players' indexes, and
/// its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub number: usize,
    pub x: usize,
    pub o: usize,
    pub seed: u64,
    /// The opening it starts from (its index in the book), for two engines.
    pub opening: Option<usize>,
}

/// Every game of the players (`engines` says which is a Gomocup engine) meeting `rounds`
/// times, each meeting two games with colours swapped, in a fixed order; two engines meet
/// once for each of `openings` (when there is a book), each opening played with both
/// colours. Game N plays with `seed + N - 1` (game 1 with `seed`, as in a battle).
pub fn schedule(engines: &[bool], openings: usize, rounds: u32, seed: u64) -> Vec<Pairing> {
    let players = engines.len();
    let mut games = Vec::new();
    for _ in 0..rounds {
        for first in 0..players {
            for second in first + 1..players {
                let book: Vec<Option<usize>> = match engines[first] && engines[second] {
                    true if openings > 0 => (0..openings).map(Some).collect(),
                    _ => vec![None],
                };
                for opening in book {
                    for (x, o) in [(first, second), (second, first)] {
                        let index = games.len();
                        games.push(Pairing {
                            number: index + 1,
                            x,
                            o,
                            seed: seed + index as u64,
                            opening,
                        });
                    }
                }
            }
        }
    }
    games
}

/// The games of slice `shard` (all without one).
pub fn slice(games: Vec<Pairing>, shard: Option<Shard>) -> Vec<Pairing> {
    games
        .into_iter()
        .filter(|game| shard.is_none_or(|shard| shard.contains(game.number - 1)))
        .collect()
}

/// A game played (or forfeited), as kept in `tournament.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    pub number: usize,
    pub seed: u64,
    #[serde(flatten)]
    pub record: Record,
}

/// `tournament.json`: the players, and the games this run (or these shards) played.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Tournament {
    pub players: Vec<Entry>,
    pub rounds: u32,
    pub seed: u64,
    /// Written only when not free-style, so that a free-style tournament's file is as before.
    #[serde(default, skip_serializing_if = "Rules::is_freestyle")]
    pub rules: Rules,
    /// A Gomocup engine's time beyond the time it was told, in milliseconds, the same for
    /// every engine (none in a tournament from before it was kept).
    #[serde(default)]
    pub time_tolerance_ms: u64,
    /// The openings two engines play from (`--openings`): each the moves `[row, col]`
    /// placed before the game, X first. Written only when there is a book.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub openings: Vec<Vec<[u8; 2]>>,
    /// The slice of the schedule this run played (`--shard K/N`), so that `--merge` can
    /// say which shard should hold a game that is missing; none for a whole run, or a
    /// merge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    pub games: Vec<Played>,
}

/// A player of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub name: String,
    /// Why it could not play (it does not compile, or was refused): it loses every game
    /// by forfeit.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub forfeits: Option<String>,
    /// Its folder, or its file to play, is a symbolic link: `forfeits` says to what.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub refused: bool,
    /// A Gomocup engine's file digest and label.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub engine: Option<EngineEntry>,
}

impl Entry {
    /// An engine's label, its answer to ABOUT (escaped when read), shown beside its name.
    pub fn about(&self) -> Option<&str> {
        self.engine.as_ref()?.about.as_deref()
    }

    /// The entry without its label: what every shard of one tournament must say alike
    /// of the player (an engine may answer ABOUT otherwise from run to run).
    fn unlabelled(&self) -> Entry {
        let mut entry = self.clone();
        if let Some(engine) = &mut entry.engine {
            engine.about = None;
        }
        entry
    }
}

/// What names a Gomocup engine beyond its file's name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineEntry {
    /// Its file's digest: the same name with another file is another engine.
    pub digest: String,
    /// Its answer to ABOUT (escaped), which may change from run to run: a label only.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub about: Option<String>,
}

/// Shards merged: the tournament, and what of its schedule no shard held, said for a
/// teacher (the standings then count only the games there are).
pub struct Merged {
    pub tournament: Tournament,
    pub missing: Option<String>,
}

/// `value` as JSON, for a message: every field shown, and what a name may hold escaped.
fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Game numbers for a reader: `game 3`, `games 2, 4 and 6`, the first eight of many and
/// how many more.
fn numbers(numbers: &[usize]) -> String {
    const SHOWN: usize = 8;
    let shown: Vec<String> = numbers.iter().take(SHOWN).map(usize::to_string).collect();
    match numbers.len() {
        1 => format!("game {}", shown[0]),
        n if n <= SHOWN => format!("games {} and {}", shown[..n - 1].join(", "), shown[n - 1]),
        n => format!("games {} and {} more", shown.join(", "), n - SHOWN),
    }
}

/// A player's line in the standings, with its name.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    pub rank: usize,
    pub name: String,
    #[serde(flatten)]
    pub standing: StandingJson,
}

/// [`standings::Standing`] as written.
#[derive(Clone, Debug, Serialize)]
pub struct StandingJson {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points: f64,
    /// Sonneborn–Berger: the points of the opponents beaten, half of those drawn.
    pub tie_break: f64,
    pub elo: f64,
    /// The 95% interval's half-width; none for a player without a game.
    pub elo_margin: Option<f64>,
}

impl Tournament {
    /// Which players are Gomocup engines, in order.
    pub fn engines(&self) -> Vec<bool> {
        self.players
            .iter()
            .map(|entry| entry.engine.is_some())
            .collect()
    }

    /// The games as the standings count them.
    fn results(&self) -> Vec<Game> {
        let index: BTreeMap<&str, usize> = self
            .players
            .iter()
            .enumerate()
            .map(|(position, entry)| (entry.name.as_str(), position))
            .collect();
        self.games
            .iter()
            .filter_map(|game| {
                Some(Game {
                    x: *index.get(game.record.x.as_str())?,
                    o: *index.get(game.record.o.as_str())?,
                    result: match game.record.winner {
                        Some(Stone::X) => GameResult::XWon,
                        Some(Stone::O) => GameResult::OWon,
                        None => GameResult::Draw,
                    },
                })
            })
            .collect()
    }

    /// The standings, best first.
    pub fn standings(&self) -> Vec<Line> {
        standings::standings(self.players.len(), &self.results())
            .into_iter()
            .enumerate()
            .map(|(rank, standing)| Line {
                rank: rank + 1,
                name: self.players[standing.player].name.clone(),
                standing: StandingJson {
                    games: standing.games,
                    wins: standing.wins,
                    draws: standing.draws,
                    losses: standing.losses,
                    points: standing.points,
                    tie_break: standing.tie_break,
                    elo: standing.elo.round(),
                    elo_margin: standing
                        .elo_margin
                        .is_finite()
                        .then(|| standing.elo_margin.round()),
                },
            })
            .collect()
    }

    /// One sentence on what was played: players, games, how the pairs met, the seed, and
    /// how many players could not play.
    pub fn summary(&self, lang: Lang) -> String {
        let (players, games, rounds) = (self.players.len(), self.games.len(), self.rounds);
        let forfeits = self
            .players
            .iter()
            .filter(|entry| entry.forfeits.is_some())
            .count();
        let en = format!(
            "{}, {} ({}; seed {}).{}",
            count(players, "player", "players"),
            count(games, "game", "games"),
            match rounds {
                1 => "each pair plays two games, colours swapped".to_string(),
                rounds =>
                    format!("each pair meets {rounds} times, two games each time, colours swapped"),
            },
            self.seed,
            match forfeits {
                0 => String::new(),
                1 => " 1 player could not play.".to_string(),
                n => format!(" {n} players could not play."),
            }
        );
        let zh = format!(
            "{players} 名选手，{games} 局（{}；种子 {}）。{}",
            match rounds {
                1 => "每对选手下两局，交换先后手".to_string(),
                rounds => format!("每对选手相遇 {rounds} 次，每次两局，交换先后手"),
            },
            self.seed,
            match forfeits {
                0 => String::new(),
                n => format!("{n} 名选手无法参赛。"),
            }
        );
        lang.pick(en, zh)
    }

    /// The crosstable: [i][j] the points of player i against player j, and their games.
    pub fn crosstable(&self) -> Vec<Vec<Option<(f64, u32)>>> {
        standings::crosstable(self.players.len(), &self.results())
    }

    /// The tournaments of several shards as one: the same players, rounds and seed, each
    /// game once; with what is missing of the schedule, if anything is.
    pub fn merge(parts: Vec<(String, Tournament)>) -> Result<Merged> {
        let Some((first_source, first)) = parts.first() else {
            bail!("nothing to merge: give the tournament.json of each shard");
        };
        // A shard is a file anyone can edit. What decides results beyond the games (a
        // player that forfeits loses every game without a move) must be what every other
        // shard says, and each game one the tournament they agree on could have played.
        for (source, part) in &parts[1..] {
            if let Some(why) = first.differs(first_source, part, source) {
                bail!(
                    "{source} is not of the tournament of {first_source}: {why}; shards \
                     are merged only with the shards of the same command"
                );
            }
        }
        for (source, part) in &parts {
            for game in &part.games {
                if let Err(why) = check_game(first, part.shard, game) {
                    bail!(
                        "{source}: game {} ({}) is not a game of this tournament: {why}; \
                         merge only the shards a tournament wrote",
                        game.number,
                        game.record.summary()
                    );
                }
            }
        }
        let shards: Vec<Option<Shard>> = parts.iter().map(|(_, part)| part.shard).collect();
        let mut parts = parts.into_iter().map(|(_, part)| part);
        let mut merged = parts.next().expect("a shard, as checked above");
        merged.shard = None;
        for part in parts {
            merged.games.extend(part.games);
        }
        // A shard given twice, or shards that overlap, hold a game twice: it counts once,
        // unless its two records differ, which no rerun of the same game may.
        merged.games.sort_by_key(|game| game.number);
        if let Some(pair) = merged
            .games
            .windows(2)
            .find(|pair| pair[0].number == pair[1].number && pair[0] != pair[1])
        {
            bail!(
                "the game numbered {} in tournament.json is in two of the shards with \
                 different records ({}; {}): merge the shards of one run only",
                pair[0].number,
                pair[0].record.summary(),
                pair[1].record.summary()
            );
        }
        merged.games.dedup_by_key(|game| game.number);
        let missing = merged.missing(&shards);
        Ok(Merged {
            tournament: merged,
            missing,
        })
    }

    /// Why `other` (from `theirs`) is not a shard of the same tournament as `self` (from
    /// `ours`), if it is not: its players (each entry whole, but an engine's label),
    /// rounds, seed, rules, time tolerance or openings differ.
    fn differs(&self, ours: &str, other: &Tournament, theirs: &str) -> Option<String> {
        let names = |t: &Tournament| -> Vec<String> {
            t.players.iter().map(|entry| entry.name.clone()).collect()
        };
        if names(self) != names(other) {
            return Some(format!(
                "its players are {} in {theirs}, {} in {ours}",
                json(&names(other)),
                json(&names(self))
            ));
        }
        for (mine, its) in self.players.iter().zip(&other.players) {
            let (mine, its) = (mine.unlabelled(), its.unlabelled());
            if mine != its {
                return Some(format!(
                    "player {} is {} in {theirs}, {} in {ours}",
                    json(&mine.name),
                    json(&its),
                    json(&mine)
                ));
            }
        }
        let settings = [
            ("rounds", self.rounds != other.rounds),
            ("seed", self.seed != other.seed),
            ("rules", self.rules != other.rules),
            (
                "time tolerance",
                self.time_tolerance_ms != other.time_tolerance_ms,
            ),
            ("openings", self.openings != other.openings),
        ];
        let differ: Vec<&str> = settings
            .iter()
            .filter(|(_, differs)| *differs)
            .map(|(name, _)| *name)
            .collect();
        (!differ.is_empty()).then(|| format!("other {}", differ.join(", ")))
    }

    /// What the schedule holds that the games do not, said for a teacher: the games'
    /// numbers, and which shard should hold them when `shards` (those merged) tell.
    fn missing(&self, shards: &[Option<Shard>]) -> Option<String> {
        let schedule = schedule(&self.engines(), self.openings.len(), self.rounds, self.seed);
        let played: std::collections::BTreeSet<usize> =
            self.games.iter().map(|game| game.number).collect();
        let missing: Vec<usize> = schedule
            .iter()
            .map(|pairing| pairing.number)
            .filter(|number| !played.contains(number))
            .collect();
        if missing.is_empty() {
            return None;
        }
        // The shards' count, when every shard merged names one and they agree.
        let count = match shards.first() {
            Some(Some(first))
                if shards
                    .iter()
                    .all(|s| s.is_some_and(|s| s.count == first.count)) =>
            {
                Some(first.count)
            }
            _ => None,
        };
        let mut said = format!(
            "{} of the {} scheduled games {} missing",
            missing.len(),
            schedule.len(),
            if missing.len() == 1 { "is" } else { "are" }
        );
        match count {
            None => said.push_str(&format!(": {}", numbers(&missing))),
            Some(count) => {
                for index in 1..=count {
                    let shard = Shard { index, count };
                    let its: Vec<usize> = missing
                        .iter()
                        .copied()
                        .filter(|number| shard.contains(number - 1))
                        .collect();
                    if its.is_empty() {
                        continue;
                    }
                    let all = schedule
                        .iter()
                        .filter(|pairing| shard.contains(pairing.number - 1))
                        .count();
                    let given = shards.contains(&Some(shard));
                    let why = match (given, its.len() == all) {
                        (false, _) => "its tournament.json was not given".to_string(),
                        (true, true) => "its tournament.json holds none of them".to_string(),
                        (true, false) => {
                            format!("its tournament.json lacks {} of its {all}", its.len())
                        }
                    };
                    said.push_str(&format!(
                        "; shard {shard} should hold {} ({why})",
                        numbers(&its)
                    ));
                }
            }
        }
        Some(said)
    }

    pub fn load(path: &Path) -> Result<Tournament> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a tournament.json", path.display()))
    }

    /// The standings as CSV, a line per player, best first, with why a player forfeits
    /// every game.
    pub fn csv(&self) -> String {
        let header = [
            "rank",
            "player",
            "games",
            "wins",
            "draws",
            "losses",
            "points",
            "tie_break",
            "elo",
            "elo_margin",
            "forfeits",
        ];
        let mut csv = csv_cell::line(&header.map(csv_cell::text));
        for line in self.standings() {
            let s = &line.standing;
            let forfeits = self
                .players
                .iter()
                .find(|entry| entry.name == line.name)
                .and_then(|entry| entry.forfeits.as_deref())
                .unwrap_or_default();
            csv.push_str(&csv_cell::line(&[
                line.rank.to_string(),
                csv_cell::text(&line.name),
                s.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
                s.points.to_string(),
                s.tie_break.to_string(),
                s.elo.to_string(),
                s.elo_margin.map(|m| m.to_string()).unwrap_or_default(),
                csv_cell::text(forfeits),
            ]));
        }
        csv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tournament(players: usize, rounds: u32, games: usize, forfeits: usize) -> Tournament {
        Tournament {
            players: (0..players)
                .map(|n| Entry {
                    name: format!("p{n}"),
                    forfeits: (n < forfeits).then(|| "does not compile".to_string()),
                    refused: false,
                    engine: None,
                })
                .collect(),
            rounds,
            seed: 7,
            rules: Rules::Freestyle,
            time_tolerance_ms: 0,
            openings: Vec::new(),
            shard: None,
            games: (1..=games)
                .map(|number| Played {
                    number,
                    seed: number as u64,
                    record: Record {
                        x: "p0".into(),
                        o: "p1".into(),
                        winner: None,
                        reason: String::new(),
                        five: Vec::new(),
                        moves: Vec::new(),
                        said: Vec::new(),
                    },
                })
                .collect(),
        }
    }

    #[test]
    fn the_summary_says_how_the_pairs_met_in_either_language() {
        assert_eq!(
            tournament(2, 1, 2, 0).summary(Lang::En),
            "2 players, 2 games (each pair plays two games, colours swapped; seed 7)."
        );
        assert_eq!(
            tournament(3, 2, 1, 1).summary(Lang::En),
            "3 players, 1 game (each pair meets 2 times, two games each time, colours \
             swapped; seed 7). 1 player could not play."
        );
        assert_eq!(
            tournament(2, 1, 2, 2).summary(Lang::Zh),
            "2 名选手，2 局（每对选手下两局，交换先后手；种子 7）。2 名选手无法参赛。"
        );
        assert_eq!(
            tournament(3, 3, 18, 0).summary(Lang::Zh),
            "3 名选手，18 局（每对选手相遇 3 次，每次两局，交换先后手；种子 7）。"
        );
    }

    #[test]
    fn every_pair_meets_twice_with_colours_swapped() {
        let games = schedule(&[false; 3], 0, 1, 10);
        assert_eq!(games.len(), 6);
        for first in 0..3 {
            for second in 0..3 {
                let meetings = games
                    .iter()
                    .filter(|g| g.x == first && g.o == second)
                    .count();
                assert_eq!(meetings, usize::from(first != second), "{first} {second}");
            }
        }
        // Numbered from 1, game 1 with the seed given.
        let numbers: Vec<usize> = games.iter().map(|game| game.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4, 5, 6]);
        assert_eq!((games[0].seed, games[5].seed), (10, 15));
        assert_eq!(schedule(&[false; 4], 0, 2, 0).len(), 24);
        // Two engines of four meet once an opening, each with both colours; the others
        // as before.
        let book = schedule(&[false, true, false, true], 3, 1, 0);
        assert_eq!(book.len(), 10 + 6);
        let openings: Vec<(usize, usize, Option<usize>)> = book
            .iter()
            .filter(|game| game.opening.is_some())
            .map(|game| (game.x, game.o, game.opening))
            .collect();
        assert_eq!(
            openings,
            [
                (1, 3, Some(0)),
                (3, 1, Some(0)),
                (1, 3, Some(1)),
                (3, 1, Some(1))
            ]
            .into_iter()
            .chain([(1, 3, Some(2)), (3, 1, Some(2))])
            .collect::<Vec<_>>()
        );
        let shards: usize = (1..=4)
            .map(|index| {
                slice(
                    schedule(&[false; 5], 0, 1, 0),
                    Some(Shard { index, count: 4 }),
                )
                .len()
            })
            .sum();
        assert_eq!(shards, 20, "the shards share the games out, each once");
        let first = slice(
            schedule(&[false; 5], 0, 1, 0),
            Some(Shard { index: 1, count: 4 }),
        );
        assert_eq!(first[0].number, 1, "shard 1 plays game 1");
    }
}

/// Why a game of the shard `shard` is not one `tournament` could have played, if it is
/// not: a game of its schedule (number, seed, players and colours, forfeits), of the
/// shard's slice, whose record the referee could have written ([`verify::moves`]).
fn check_game(tournament: &Tournament, shard: Option<Shard>, game: &Played) -> Result<(), String> {
    let pairing = schedule(
        &tournament.engines(),
        tournament.openings.len(),
        tournament.rounds,
        tournament.seed,
    )
    .into_iter()
    .find(|pairing| pairing.number == game.number)
    .ok_or("its number is not in the tournament's schedule")?;
    if let Some(shard) = shard.filter(|shard| !shard.contains(game.number - 1)) {
        return Err(format!(
            "it is not of shard {shard}'s slice of the schedule"
        ));
    }
    let (x, o) = (
        &tournament.players[pairing.x],
        &tournament.players[pairing.o],
    );
    let record = &game.record;
    if game.seed != pairing.seed {
        return Err(format!(
            "its seed is {}, the schedule's {}",
            game.seed, pairing.seed
        ));
    }
    if (record.x.as_str(), record.o.as_str()) != (x.name.as_str(), o.name.as_str()) {
        return Err("its players or colours are not the schedule's".to_string());
    }
    if x.forfeits.is_some() || o.forfeits.is_some() {
        let winner = match (&x.forfeits, &o.forfeits) {
            (Some(_), Some(_)) => None,
            (Some(_), None) => Some(Stone::O),
            _ => Some(Stone::X),
        };
        return match record.moves.is_empty() && record.winner == winner {
            true => Ok(()),
            false => Err("a player forfeits it, and the record does not say so".to_string()),
        };
    }
    // A game from an opening starts with its moves, X first.
    let opening = pairing
        .opening
        .map_or(&[][..], |k| &tournament.openings[k][..]);
    let starts = opening.len() <= record.moves.len()
        && opening
            .iter()
            .zip(&record.moves)
            .enumerate()
            .all(|(k, (cell, step))| {
                step.stone == Stone::to_move(k) && [step.row, step.col] == *cell
            });
    // A game whose engine failed to start ends before its opening is placed.
    let unstarted = record.moves.is_empty() && verify::start_fault(&record.reason);
    if !(starts || unstarted) {
        return Err(format!(
            "it does not start from opening {} of the tournament's book",
            pairing.opening.map_or(0, |k| k + 1)
        ));
    }
    verify::moves(record, tournament.rules)
}

#[cfg(test)]
mod check_game_tests {
    use super::*;
    use crate::game::battle::Move;

    fn entry(name: &str) -> Entry {
        Entry {
            name: name.to_string(),
            forfeits: None,
            refused: false,
            engine: None,
        }
    }

    /// Game 1 of two players: `a` (X) makes five on row 7 while `b` plays row 0.
    fn tournament() -> (Tournament, Played) {
        let mut moves = Vec::new();
        for k in 0..5u8 {
            moves.push(Move {
                stone: Stone::X,
                row: 7,
                col: 3 + k,
            });
            if k < 4 {
                moves.push(Move {
                    stone: Stone::O,
                    row: 0,
                    col: k,
                });
            }
        }
        let played = Played {
            number: 1,
            seed: 1,
            record: Record {
                x: "a".into(),
                o: "b".into(),
                winner: Some(Stone::X),
                reason: "X made five".into(),
                five: (3..8).map(|col| [7, col]).collect(),
                moves,
                said: Vec::new(),
            },
        };
        let tournament = Tournament {
            players: vec![entry("a"), entry("b")],
            rounds: 1,
            seed: 1,
            rules: Rules::Freestyle,
            time_tolerance_ms: 0,
            openings: Vec::new(),
            shard: None,
            games: vec![played.clone()],
        };
        (tournament, played)
    }

    /// A shard is checked against what the other shards say of the players, not only
    /// against itself: one that says a player forfeits, and makes that player's game an
    /// empty forfeit, is refused naming both shards and the player; a game dropped, or a
    /// shard left out, is named with the shard that should hold it.
    #[test]
    fn shards_must_agree_on_every_player_and_what_is_missing_is_named() {
        let (whole, honest) = tournament();
        let shard = |index| Some(Shard { index, count: 2 });
        let one = Tournament {
            shard: shard(1),
            ..whole.clone()
        };
        let two = Tournament {
            shard: shard(2),
            games: Vec::new(),
            ..whole.clone()
        };
        let merged = Tournament::merge(vec![("one".into(), one.clone())]).unwrap();
        assert_eq!(
            merged.missing.as_deref(),
            Some(
                "1 of the 2 scheduled games is missing; shard 2/2 should hold game 2 (its \
                 tournament.json was not given)"
            )
        );
        let merged = Tournament::merge(vec![
            ("one".into(), one.clone()),
            ("two".into(), two.clone()),
        ])
        .unwrap();
        assert!(
            merged
                .missing
                .unwrap()
                .ends_with("shard 2/2 should hold game 2 (its tournament.json holds none of them)")
        );
        // The forgery: `a`, who won game 1, forfeits in shard one's list, and its game is
        // an empty loss; shard one alone holds together.
        let mut forged = one.clone();
        forged.players[0].forfeits = Some("does not compile".into());
        forged.games[0].record = Record {
            winner: Some(Stone::O),
            reason: "a does not compile".into(),
            five: Vec::new(),
            moves: Vec::new(),
            ..honest.record.clone()
        };
        assert!(Tournament::merge(vec![("forged".into(), forged.clone())]).is_ok());
        for parts in [
            vec![
                ("two".into(), two.clone()),
                ("forged".into(), forged.clone()),
            ],
            vec![
                ("forged".into(), forged.clone()),
                ("two".into(), two.clone()),
            ],
        ] {
            let refused = Tournament::merge(parts).err().unwrap().to_string();
            assert!(refused.contains("player \"a\" is {"), "{refused}");
            assert!(
                refused.contains("\"forfeits\":\"does not compile\"} in forged"),
                "{refused}"
            );
            assert!(refused.contains("in two"), "{refused}");
        }
        // The game alone, the list left as it is: checked against the players all agree on.
        let mut game_only = one.clone();
        game_only.games[0] = forged.games[0].clone();
        let refused = Tournament::merge(vec![("two".into(), two), ("one".into(), game_only)])
            .err()
            .unwrap()
            .to_string();
        assert!(refused.starts_with("one: game 1"), "{refused}");
        // A game of the other shard's slice.
        let mut astray = one;
        astray.shard = shard(2);
        let refused = Tournament::merge(vec![("astray".into(), astray)])
            .err()
            .unwrap()
            .to_string();
        assert!(refused.contains("not of shard 2/2's slice"), "{refused}");
        // An engine's label may differ from shard to shard; its file may not.
        let engine = |about: &str, digest: &str| {
            let mut t = whole.clone();
            t.players[1].engine = Some(EngineEntry {
                digest: digest.into(),
                about: Some(about.into()),
            });
            t.games.clear();
            t
        };
        assert!(
            Tournament::merge(vec![
                ("one".into(), engine("pela 10:01", "d")),
                ("two".into(), engine("pela 10:02", "d"))
            ])
            .is_ok()
        );
        assert!(
            Tournament::merge(vec![
                ("one".into(), engine("pela", "d")),
                ("two".into(), engine("pela", "e"))
            ])
            .is_err()
        );
    }

    /// What a forger changes in a game.
    type Forgery = fn(&mut Played);

    #[test]
    fn a_game_the_referee_could_have_recorded_is_accepted_and_a_forged_one_refused() {
        let (tournament, honest) = tournament();
        assert_eq!(check_game(&tournament, None, &honest), Ok(()));
        let forged: [(&str, Forgery); 12] = [
            ("not in the tournament's schedule", |g| g.number = 3),
            ("its seed is 9", |g| g.seed = 9),
            ("players or colours", |g| {
                std::mem::swap(&mut g.record.x, &mut g.record.o)
            }),
            ("players or colours", |g| g.record.o = "mallory".into()),
            ("not the one who made five", |g| {
                g.record.winner = Some(Stone::O)
            }),
            ("not a move of the game", |g| g.record.moves[2].row = 200),
            ("not a move of the game", |g| {
                g.record.moves[2] = g.record.moves[0]
            }),
            ("after the five", |g| {
                g.record.moves.push(Move {
                    stone: Stone::O,
                    row: 1,
                    col: 1,
                })
            }),
            ("winning five is not on the board", |g| {
                g.record.five[4] = [0, 0]
            }),
            ("a win without a five or a fault", |g| {
                g.record.moves.pop();
                g.record.five.clear();
            }),
            // X was to move: O cannot have been late.
            ("faults the side that was not to move", |g| {
                g.record.moves.pop();
                g.record.five.clear();
                g.record.reason = "O: no move within 2000 ms (move 9)".into();
            }),
            ("faults a start after moves were played", |g| {
                g.record.moves.pop();
                g.record.five.clear();
                g.record.reason = "O: no OK to START 15 within 2000 ms".into();
            }),
        ];
        for (why, forge) in forged {
            let mut played = honest.clone();
            forge(&mut played);
            let refused = check_game(&tournament, None, &played).expect_err(why);
            assert!(refused.contains(why), "{why}: {refused}");
        }
        // A fault names the loser: its opponent won.
        let mut faulted = honest.clone();
        faulted.record.moves.pop();
        faulted.record.five.clear();
        faulted.record.reason = "X: no move within 2000 ms (move 9)".into();
        faulted.record.winner = Some(Stone::O);
        assert_eq!(check_game(&tournament, None, &faulted), Ok(()));
        faulted.record.winner = Some(Stone::X);
        assert!(
            check_game(&tournament, None, &faulted)
                .unwrap_err()
                .contains("faults")
        );
        // Two engines from an opening: a game ends before it when an engine does not
        // start, and only then.
        let mut book = tournament.clone();
        for entry in &mut book.players {
            entry.engine = Some(EngineEntry {
                digest: "d".into(),
                about: None,
            });
        }
        book.openings = vec![vec![[7, 7]]];
        let mut unstarted = honest.clone();
        unstarted.record.moves.clear();
        unstarted.record.five.clear();
        unstarted.record.winner = Some(Stone::X);
        unstarted.record.reason = "O: no OK to START 15 within 2000 ms".into();
        assert_eq!(check_game(&book, None, &unstarted), Ok(()));
        unstarted.record.reason = "O: no move within 2000 ms (move 1)".into();
        assert!(
            check_game(&book, None, &unstarted)
                .unwrap_err()
                .contains("does not start from opening 1")
        );
    }
}

//! `clings tournament SUBMISSIONS`: a class round robin, games in parallel, each in
//! sandboxes of its own; standings, crosstable and every game's record written to `--out`.
//! `--shard K/N` plays a slice of the games, `--merge` puts the slices together;
//! `--html FILE` draws the tournament's page (see [`crate::report::tournament_html`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use crate::app::App;
use crate::commands::{Exit, grade};
use crate::game::battle::{self, Arena, Entrant, Player, Record, Rules, Stone};
use crate::game::openings;
use crate::game::tournament::{
    self, CSV_FILE, EngineEntry, Entry, JSON_FILE, Pairing, Played, Tournament,
};
use crate::report::tournament_html;
use crate::util::atomic;
use crate::util::digest;
use crate::util::i18n::{Lang, count};
use crate::util::parallel;
use crate::util::shard::Shard;
use crate::util::style;
use crate::util::term;

/// A class tournament: every player meets every other in two games, colours
/// swapped (round robin), games in parallel; standings with a rating, crosstable,
/// every game's record.
#[derive(clap::Args)]
pub struct Args {
    /// The directory of submissions (one subdirectory per student, as for `grade`).
    #[arg(required_unless_present = "merge", conflicts_with = "merge")]
    submissions: Option<PathBuf>,
    /// Add a course bot as a player (repeat for several): random, priorities, strong.
    #[arg(long = "bot", value_name = "NAME")]
    bots: Vec<String>,
    /// Add a Gomocup engine as a player (repeat for several): an executable, a C file
    /// built as a student's, or a folder holding its executable (pbrain-NAME) and the
    /// files it reads; it is named by its file or folder, labelled by its answer to ABOUT.
    #[arg(long = "engine", value_name = "FILE")]
    engines: Vec<PathBuf>,
    /// How many times each pair meets; each time is two games, colours swapped.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// The seed of the course bots' games (each game has its own, recorded).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only slice K of N of the games (deterministic), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Combine the tournament.json of several shards into one.
    #[arg(long, num_args = 1.., value_name = "TOURNAMENT_JSON")]
    merge: Vec<PathBuf>,
    /// Where tournament.json, standings.csv and the games' replays are written.
    #[arg(long, value_name = "DIR", default_value = "tournament")]
    out: PathBuf,
    /// Also write the tournament's page to FILE: standings, crosstable and every
    /// game replayable on a board, one self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// The exercise whose referee judges (default: the first that has one).
    #[arg(long)]
    exercise: Option<String>,
    /// The rules: freestyle (five or more win), or renju (black may not play an
    /// overline, a double four or a double three).
    #[arg(long, value_name = "RULES", default_value = "freestyle")]
    rule: Rules,
    /// A Gomocup engine's time beyond the timeout_turn and timeout_match it is told, in
    /// milliseconds, the same for every engine (a lesson player's time is the lesson's);
    /// recorded in tournament.json.
    #[arg(long, value_name = "MS", default_value = "1000", value_parser = crate::commands::battle::milliseconds)]
    time_tolerance: Duration,
    /// An opening book for the games between two engines: an opening a line, its moves
    /// as Gomocup cells `x,y` (the column first), X first; two engines play each opening
    /// with either colour (a lesson player cannot be given a position). Recorded in
    /// tournament.json.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
}

/// `clings tournament SUBMISSIONS` or `clings tournament --merge TOURNAMENT_JSON...`.
pub fn run(app: &App, options: &Args) -> Result<Exit> {
    match &options.submissions {
        Some(submissions) => play(app, submissions, options),
        None => merge(
            &options.merge,
            &options.out,
            options.html.as_deref(),
            app.lang,
        ),
    }
}

fn play(app: &App, submissions: &Path, options: &Args) -> Result<Exit> {
    let course = &app.course;
    let exercise = battle::refereed_exercise(course, options.exercise.as_deref())?;
    // A refused folder plays no game: the reason it was refused stands for its build.
    let mut entrants: Vec<(String, Result<Entrant, String>)> =
        grade::students(submissions, std::slice::from_ref(exercise))?
            .into_iter()
            .map(|student| (student.name, student.folder.map(Entrant::Submission)))
            .collect();
    for bot in &options.bots {
        match Entrant::parse(course, bot)? {
            entrant @ Entrant::Bot(_) => entrants.push((format!("bot {bot}"), Ok(entrant))),
            _ => anyhow::bail!(
                "--bot {bot}: not a course bot ({})",
                Entrant::bots(course).join(", ")
            ),
        }
    }
    for engine in &options.engines {
        let stem = engine.file_stem().unwrap_or_default().to_string_lossy();
        entrants.push((format!("engine {stem}"), Ok(Entrant::engine(engine)?)));
    }
    anyhow::ensure!(
        entrants.len() >= 2,
        "a tournament needs two players at least: {} has {} (add course bots with --bot)",
        submissions.display(),
        entrants.len()
    );
    let grader = app.grader_for_submissions()?;
    for warning in &grader.warnings {
        eprintln!("warning: {warning}");
    }
    let arena = Arena::new(&grader, exercise, options.rule, options.time_tolerance)?;
    let jobs = grader.jobs;
    let mut built: Vec<Result<Player>> =
        parallel::map(&entrants, jobs, |(name, entrant)| match entrant {
            Ok(entrant) => arena.player(entrant, name),
            Err(why) => Err(anyhow::anyhow!("refused: {why}")),
        });
    // An engine is named by its file, as a bot is by the course (`engine FILE`): its
    // answer to ABOUT may change from run to run (the time, a build number), and the
    // shards of one tournament must name it alike. ABOUT is its label.
    let mut names: Vec<String> = entrants.iter().map(|(name, _)| name.clone()).collect();
    battle::distinct(&mut names);
    for (build, name) in built.iter_mut().zip(&names) {
        if let Ok(player) = build {
            player.name = name.clone();
        }
    }
    let players: Vec<Entry> = entrants
        .iter()
        .zip(&built)
        .zip(names)
        .map(|(((_, entrant), build), name)| Entry {
            name,
            forfeits: build.as_ref().err().map(forfeit_reason),
            refused: entrant.is_err(),
            engine: match entrant {
                Ok(Entrant::Engine(path)) => Some(engine_entry(path, build)),
                _ => None,
            },
        })
        .collect();
    // Players are named after students' folders, which may hold any character.
    for entry in &players {
        if let Some(why) = &entry.forfeits {
            eprintln!(
                "{} forfeits every game: {}",
                style::one_line(&entry.name),
                style::one_line(why)
            );
        }
    }
    let openings = match &options.openings {
        Some(path) => openings::read(path, options.rule)?,
        None => Vec::new(),
    };
    let engines: Vec<bool> = players.iter().map(|entry| entry.engine.is_some()).collect();
    let schedule = tournament::slice(
        tournament::schedule(&engines, openings.len(), options.rounds, options.seed),
        options.shard,
    );
    let total = schedule.len();
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let played = parallel::map(&schedule, jobs, |pairing| -> Result<Played> {
        let record = match (&built[pairing.x], &built[pairing.o]) {
            (Ok(x), Ok(o)) => {
                let opening = pairing.opening.map_or(&[][..], |k| &openings[k][..]);
                arena.play(x, o, pairing.seed, opening, &|_| {})?
            }
            _ => forfeit(&players, pairing),
        };
        let done = finished.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        let line = format!(
            "[{done}/{total}] game {}: {} (X) v {} (O): {}",
            pairing.number,
            record.x,
            record.o,
            record.summary()
        );
        println!("{}", style::one_line(&line));
        Ok(Played {
            number: pairing.number,
            seed: pairing.seed,
            record,
        })
    });
    let tournament = Tournament {
        players,
        rounds: options.rounds,
        seed: options.seed,
        rules: options.rule,
        time_tolerance_ms: options.time_tolerance.as_millis() as u64,
        openings,
        shard: options.shard,
        games: played.into_iter().collect::<Result<Vec<Played>>>()?,
    };
    write(&tournament, &options.out, options.html.as_deref(), app.lang)?;
    // As for `grade`: the standings are whole, but a refused player needs a teacher's look.
    Ok(match tournament.players.iter().any(|entry| entry.refused) {
        true => Exit::Failure,
        false => Exit::Success,
    })
}

/// `clings tournament --merge`: the shards' games, one tournament (and its page, with
/// `html`).
fn merge(parts: &[PathBuf], out: &Path, html: Option<&Path>, lang: Lang) -> Result<Exit> {
    let parts = parts
        .iter()
        .map(|path| Ok((path.display().to_string(), Tournament::load(path)?)))
        .collect::<Result<Vec<_>>>()?;
    let merged = Tournament::merge(parts)?;
    write(&merged.tournament, out, html, lang)?;
    // The standings of the games there are, written; but a missing shard (a CI job that
    // failed) or dropped games leave players short of games: the teacher is told which,
    // and where they should be, and the exit status says it is not the whole tournament.
    Ok(match merged.missing {
        Some(missing) => {
            eprintln!(
                "incomplete: {missing}; the standings count only the games merged: merge \
                 again with every shard's tournament.json"
            );
            Exit::Failure
        }
        None => Exit::Success,
    })
}

/// Why a player that could not be built forfeits, on one line: what went wrong and, for a
/// program that does not compile, the compiler's first error (its first line, else the
/// first it printed), as the tournament's row of tests/PROMISES.md says.
fn forfeit_reason(error: &anyhow::Error) -> String {
    let text = format!("{error:#}");
    let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty());
    let what = lines.next().unwrap_or_default();
    let details: Vec<&str> = lines.collect();
    let first = details
        .iter()
        .find(|line| line.contains("error"))
        .or(details.first());
    match first {
        Some(first) => format!("{}: {first}", what.trim_end_matches(':')),
        None => what.to_string(),
    }
}

/// The record of a game a player could not play: it loses (both lose: a draw).
fn forfeit(players: &[Entry], pairing: &Pairing) -> Record {
    let (x, o) = (&players[pairing.x], &players[pairing.o]);
    let absent = |entry: &Entry| match entry.refused {
        true => format!("{} was refused", entry.name),
        false => format!("{} does not compile", entry.name),
    };
    let (winner, reason) = match (&x.forfeits, &o.forfeits) {
        (Some(_), Some(_)) => (None, format!("{}, and {}", absent(x), absent(o))),
        (Some(_), None) => (Some(Stone::O), absent(x)),
        _ => (Some(Stone::X), absent(o)),
    };
    Record {
        x: x.name.clone(),
        o: o.name.clone(),
        winner,
        reason,
        five: Vec::new(),
        moves: Vec::new(),
        said: Vec::new(),
    }
}

/// An engine's identity beyond its name: its file's digest, or its folder's (of the copy
/// it played from), so that shards merge only with the same files; and the name it gives
/// itself.
fn engine_entry(path: &Path, build: &Result<Player>) -> EngineEntry {
    let player = build.as_ref().ok();
    let digest = match player.and_then(|player| player.folder.as_deref()) {
        Some(folder) => folder.digest.clone(),
        None => digest::of(&[&std::fs::read(path).unwrap_or_default()]),
    };
    EngineEntry {
        digest,
        about: player.and_then(|player| player.about.clone()),
    }
}

/// Writes tournament.json, standings.csv and each game's replay into `out`, and the page
/// to `html`; prints the standings and the crosstable.
fn write(tournament: &Tournament, out: &Path, html: Option<&Path>, lang: Lang) -> Result<()> {
    let games = out.join("games");
    std::fs::create_dir_all(&games)
        .with_context(|| format!("cannot create {}", games.display()))?;
    let json = serde_json::to_vec_pretty(tournament).context("cannot write the tournament")?;
    atomic::write(&out.join(JSON_FILE), &json)?;
    atomic::write(&out.join(CSV_FILE), tournament.csv().as_bytes())?;
    for game in &tournament.games {
        let name = format!("{:04}.txt", game.number);
        atomic::write(&games.join(name), game.record.replay().as_bytes())?;
    }
    println!("\n{}", tournament.summary(lang));
    print!("{}", standings_table(tournament));
    println!(
        "{}; written: {}, {}, replays in {}",
        count(tournament.games.len(), "game", "games"),
        out.join(JSON_FILE).display(),
        out.join(CSV_FILE).display(),
        games.display()
    );
    if let Some(path) = html {
        atomic::write(path, tournament_html::page(tournament, lang).as_bytes())?;
        println!(
            "drew the tournament's page ({}, {}) into {}",
            count(tournament.players.len(), "player", "players"),
            count(tournament.games.len(), "game", "games"),
            path.display()
        );
    }
    Ok(())
}

/// The standings, then the crosstable (row against column: points of games played). Names
/// are shown escaped (they are students' folders' names) and padded by the columns they
/// take on screen, so that a Chinese name (two columns a character) keeps the table
/// straight; the crosstable's row names are cut to [`CROSSTABLE_NAME`] columns.
fn standings_table(tournament: &Tournament) -> String {
    let standings = tournament.standings();
    let names: Vec<String> = standings
        .iter()
        .map(|line| style::one_line(&line.name).into_owned())
        .collect();
    // An engine's label, its answer to ABOUT, beside its name in the standings.
    let labelled: Vec<String> = standings
        .iter()
        .zip(&names)
        .map(|(line, name)| {
            let entry = tournament.players.iter().find(|e| e.name == line.name);
            match entry.and_then(Entry::about) {
                Some(about) => format!("{name} “{}”", style::one_line(about)),
                None => name.clone(),
            }
        })
        .collect();
    let width = labelled
        .iter()
        .map(|name| term::columns(name))
        .max()
        .unwrap_or(0);
    let width = width.max("player".len());
    let mut text = format!(
        "\n{:>4}  {}  {:>5} {:>4} {:>4} {:>4} {:>6} {:>9}  {:>12}\n",
        "rank",
        padded("player", width),
        "games",
        "won",
        "drew",
        "lost",
        "points",
        "tie-break",
        "elo"
    );
    for (line, name) in standings.iter().zip(&labelled) {
        let s = &line.standing;
        let elo = match s.elo_margin {
            Some(margin) => format!("{:+} ± {margin}", s.elo),
            None => "-".to_string(),
        };
        text.push_str(&format!(
            "{:>4}  {}  {:>5} {:>4} {:>4} {:>4} {:>6} {:>9}  {:>12}\n",
            line.rank,
            padded(name, width),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.points,
            s.tie_break,
            elo
        ));
    }
    let cross = tournament.crosstable();
    let labels: Vec<String> = standings
        .iter()
        .zip(&names)
        .map(|(line, name)| cut(&format!("{} {name}", line.rank), CROSSTABLE_NAME))
        .collect();
    let label_width = labels
        .iter()
        .map(|label| term::columns(label))
        .max()
        .unwrap_or(0);
    text.push_str(&format!(
        "\ncrosstable (points of the row's player against the column's)\n{}",
        padded("", label_width)
    ));
    for line in &standings {
        text.push_str(&format!(" {:>5}", line.rank));
    }
    text.push('\n');
    let index = |name: &str| {
        tournament
            .players
            .iter()
            .position(|entry| entry.name == name)
    };
    for (row, label) in standings.iter().zip(&labels) {
        text.push_str(&padded(label, label_width));
        for column in &standings {
            let cell = index(&row.name)
                .zip(index(&column.name))
                .and_then(|(i, j)| cross[i][j]);
            let shown = match cell {
                Some((points, games)) if games > 0 => format!("{points}/{games}"),
                _ => "-".to_string(),
            };
            text.push_str(&format!(" {shown:>5}"));
        }
        text.push('\n');
    }
    text
}

/// The most columns a crosstable row's rank and name take: the standings above give the
/// whole name.
const CROSSTABLE_NAME: usize = 24;

/// `text` followed by spaces up to `width` columns on screen.
fn padded(text: &str, width: usize) -> String {
    let room = width.saturating_sub(term::columns(text));
    format!("{text}{}", " ".repeat(room))
}

/// `text` cut to at most `width` columns on screen, an ellipsis ending what was cut.
fn cut(text: &str, width: usize) -> String {
    if term::columns(text) <= width {
        return text.to_string();
    }
    let mut kept = String::new();
    for ch in text.chars() {
        if term::columns(&kept) + term::columns(ch.encode_utf8(&mut [0; 4])) + 1 > width {
            break;
        }
        kept.push(ch);
    }
    kept.push('…');
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_stay_aligned_with_wide_long_and_escaped_names() {
        let names = [
            "李小龙",
            "ana",
            "a-very-long-name-for-a-student-folder",
            "eve\x1b[2J",
        ];
        let players = names
            .iter()
            .map(|name| Entry {
                name: name.to_string(),
                forfeits: None,
                refused: false,
                // An engine's label, which a shard may forge.
                engine: (*name == "ana").then(|| EngineEntry {
                    digest: "d".into(),
                    about: Some("pela\x1b[2J 1.2".into()),
                }),
            })
            .collect();
        let games = tournament::schedule(&[false; 4], 0, 1, 1)
            .into_iter()
            .map(|pairing| Played {
                number: pairing.number,
                seed: pairing.seed,
                record: Record {
                    x: names[pairing.x].to_string(),
                    o: names[pairing.o].to_string(),
                    winner: Some(Stone::X),
                    reason: String::new(),
                    five: Vec::new(),
                    moves: Vec::new(),
                    said: Vec::new(),
                },
            })
            .collect();
        let tournament = Tournament {
            players,
            rounds: 1,
            seed: 1,
            rules: Rules::Freestyle,
            time_tolerance_ms: 0,
            openings: Vec::new(),
            shard: None,
            games,
        };
        let table = standings_table(&tournament);
        assert!(!table.contains('\x1b'), "{table}");
        let (standings, crosstable) = table.split_once("crosstable").unwrap();
        // Every line of a table ends in the same column: the names take their room.
        for part in [standings, crosstable.split_once('\n').unwrap().1] {
            let widths: Vec<usize> = part
                .lines()
                .filter(|line| !line.is_empty())
                .map(term::columns)
                .collect();
            assert!(widths.windows(2).all(|pair| pair[0] == pair[1]), "{table}");
        }
        assert!(
            table.contains("a-very-long-name-for-a-student-folder"),
            "{table}"
        );
        assert!(crosstable.contains("a-very-long-name-for-…"), "{table}");
        assert!(standings.contains("ana “pela\\x1b[2J 1.2”"), "{table}");
    }
}

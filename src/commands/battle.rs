//! `clings battle A B`: two players, games through the course's referee. In a terminal
//! the board is drawn again after every move; elsewhere (CI, a pipe) each game's final
//! board and result are printed once.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::app::App;
use crate::commands::Exit;
use crate::game::battle::{self, Arena, Entrant, Move, Player, Record, Rules};
use crate::util::atomic;
use crate::util::style;

/// Home and clear: the board keeps its place on the screen.
const CLEAR: &str = "\x1b[H\x1b[2J";

/// Two players play Gomoku through the course's referee, the board drawn move by
/// move; each game's replay is written (the `replay` exercise's format).
#[derive(clap::Args)]
pub struct Args {
    /// A player: a C file, a student's directory (course layout), a course bot by name
    /// (a file of bots/: random, priorities, strong), or a Gomocup engine, `gomocup:FILE`
    /// (an executable, or a C file built as a student's) or `gomocup:DIR` (a folder
    /// holding its executable, pbrain-NAME, and the files it reads).
    a: String,
    /// The other player, the same way.
    b: String,
    /// How many games, colours alternating (A has X in the first).
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// The seed of the course bots' games (game N plays with SEED + N - 1).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where each game's replay is written (game-1.txt, ...).
    #[arg(long, value_name = "DIR", default_value = "battle")]
    out: PathBuf,
    /// In a terminal, the pause between two moves drawn, in milliseconds (the
    /// programs play at their own pace: a game between bots lasts a blink).
    #[arg(long, value_name = "MS", default_value = "150", value_parser = milliseconds)]
    delay: Duration,
    /// The exercise whose referee judges (default: the first that has one).
    #[arg(long)]
    exercise: Option<String>,
    /// The rules: freestyle (five or more win), or renju (black may not play an
    /// overline, a double four or a double three).
    #[arg(long, value_name = "RULES", default_value = "freestyle")]
    rule: Rules,
    /// A Gomocup engine's time beyond the timeout_turn and timeout_match it is told, in
    /// milliseconds (a lesson player's time is the lesson's).
    #[arg(long, value_name = "MS", default_value = "1000", value_parser = milliseconds)]
    time_tolerance: Duration,
}

pub fn milliseconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse()
        .map(Duration::from_millis)
        .map_err(|_| format!("{text:?} is not a number of milliseconds"))
}

pub fn run(app: &App, options: &Args) -> Result<Exit> {
    let course = &app.course;
    let exercise = battle::refereed_exercise(course, options.exercise.as_deref())?;
    let entrants = [&options.a, &options.b]
        .into_iter()
        .map(|spec| Entrant::parse(course, spec))
        .collect::<Result<Vec<Entrant>>>()?;
    // Someone else's program is isolated as any submission is.
    let grader = match entrants.iter().any(|entrant| entrant.foreign(course)) {
        true => app.grader_for_submissions()?,
        false => app.grader()?,
    };
    for warning in &grader.warnings {
        eprintln!("warning: {warning}");
    }
    let arena = Arena::new(&grader, exercise, options.rule, options.time_tolerance)?;
    let mut players = entrants
        .iter()
        .zip([&options.a, &options.b])
        .map(|(entrant, spec)| arena.player(entrant, &style::one_line(spec)))
        .collect::<Result<Vec<Player>>>()?;
    let names = names(&players);
    for (player, name) in players.iter_mut().zip(&names) {
        player.name = name.clone();
    }
    std::fs::create_dir_all(&options.out)
        .with_context(|| format!("cannot create {}", options.out.display()))?;
    let live = std::io::stdout().is_terminal();
    let mut wins = [0u32; 2];
    let mut draws = 0;
    for game in 0..options.games {
        let seed = options.seed + u64::from(game);
        // Colours alternate: A has X in the first game.
        let (x, o) = if game % 2 == 0 { (0, 1) } else { (1, 0) };
        let (x_player, o_player) = (&players[x], &players[o]);
        let rules = match options.rule {
            Rules::Renju => ", renju rules",
            Rules::Freestyle => "",
        };
        let title = format!(
            "game {} of {}: {} (X) against {} (O), seed {seed}{rules}",
            game + 1,
            options.games,
            x_player.name,
            o_player.name
        );
        println!("{title}");
        // In a terminal the moves are drawn one by one, `delay` apart, as they come; the
        // last one (which the referee passes on to no one) from the record.
        let shown = Mutex::new(0usize);
        let animate = |moves: &[Move]| {
            let mut shown = shown.lock().expect("board lock");
            while live && *shown < moves.len() {
                *shown += 1;
                redraw(&title, &moves[..*shown]);
                std::thread::sleep(options.delay);
            }
        };
        let record = arena.play(x_player, o_player, seed, &[], &animate)?;
        animate(&record.moves);
        if live {
            // The final board, with the five, in place of the last one drawn.
            println!("{CLEAR}{title}");
        }
        print!("{}", battle::draw(&record.moves, &record.five));
        println!("{}", record.summary());
        let replay = options.out.join(format!("game-{}.txt", game + 1));
        atomic::write(&replay, record.replay().as_bytes())?;
        println!(
            "replay: {} (the replay exercise plays it back)\n",
            replay.display()
        );
        match winner_side(&record, x, o) {
            Some(side) => wins[side] += 1,
            None => draws += 1,
        }
    }
    let points = |side: usize| f64::from(wins[side]) + f64::from(draws) / 2.0;
    println!(
        "score after {}: {} {} - {} {} ({} won by {}, {} by {}, {} drawn)",
        crate::util::i18n::count(options.games as usize, "game", "games"),
        names[0],
        points(0),
        points(1),
        names[1],
        wins[0],
        names[0],
        wins[1],
        names[1],
        draws
    );
    Ok(Exit::Success)
}

/// The players' names: as given (escaped: a player may be a student's folder, whose name
/// may hold any character), an engine's its own; a player against itself is told apart.
fn names(players: &[Player]) -> [String; 2] {
    let name = |player: &Player| player.about.clone().unwrap_or_else(|| player.name.clone());
    let (a, b) = (name(&players[0]), name(&players[1]));
    if a == b {
        [format!("{a} (A)"), format!("{b} (B)")]
    } else {
        [a, b]
    }
}

/// Which of A (0) and B (1) won, `x` and `o` being their seats.
fn winner_side(record: &Record, x: usize, o: usize) -> Option<usize> {
    record.winner.map(|stone| match stone {
        battle::Stone::X => x,
        battle::Stone::O => o,
    })
}

/// The game so far, over the previous drawing.
fn redraw(title: &str, moves: &[Move]) {
    let mut out = std::io::stdout().lock();
    let _ = write!(
        out,
        "{CLEAR}{title}\n{}move {}\n",
        battle::draw(moves, &[]),
        moves.len()
    );
    let _ = out.flush();
}

//! The Gomocup protocol both ways (issue 30, docs/gomocup.md): an engine plays lesson
//! players and the course's bots through the referee, loses on a protocol error with a
//! reason that says which, and enters a tournament under the name it gives; `clings
//! pbrain` plays a lesson player as an engine for a Gomocup manager.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use common::{battle, clings, clings_process, copy_course, repo, stderr_of, stdout_of};

/// An engine of `tests/programs/gomocup/`, marked as one.
fn engine(name: &str) -> String {
    format!("gomocup:{}", engine_file(name).display())
}

fn engine_file(name: &str) -> PathBuf {
    repo().join(format!("tests/programs/gomocup/{name}.c"))
}

/// The result line of each game a battle printed.
fn results(said: &str) -> Vec<&str> {
    said.lines()
        .filter(|line| {
            !line.starts_with("score ") && (line.contains(" won ") || line.starts_with("a draw"))
        })
        .collect()
}

#[test]
fn an_engine_plays_lesson_players_and_the_course_bots_with_either_colour() {
    let course = copy_course(&repo());
    let solution = repo().join("solutions/ai.c");
    // The test engine says MESSAGE and DEBUG lines before every move, and ERROR lines to
    // INFO max_memory and INFO time_left as Rapfi does, which the referee must keep out
    // of the game: read as moves, they would lose its games at once.
    for opponent in [solution.to_str().unwrap(), "strong", "random"] {
        let said = battle(
            course.path(),
            &[&engine("engine"), opponent, "--games", "2"],
        );
        assert!(
            said.contains("game 1 of 2: testbrain (X) against"),
            "{said}"
        );
        assert!(said.contains("(X) against testbrain (O)"), "{said}");
        let results = results(&said);
        assert_eq!(results.len(), 2, "{said}");
        for result in results {
            assert!(result.ends_with("made five"), "a game played out: {said}");
        }
    }
    // The engine's moves are x,y (the column first): its replays are the lesson's r c.
    let replay = std::fs::read_to_string(course.path().join("battle/game-1.txt")).unwrap();
    let first: Vec<&str> = replay.lines().take(2).collect();
    assert_eq!(first[0], "7 7", "the engine opens in the centre: {replay}");
    // What it said is in its replay, escaped, after the moves (where a replay program
    // stops reading), in the engine's own order whatever the load.
    let said: Vec<&str> = replay
        .lines()
        .skip_while(|line| !line.starts_with('#'))
        .collect();
    assert_eq!(
        &said[..5],
        [
            "# X before move 1: ERROR Failed to allocate 262144 KB for transposition table",
            "# X before move 1: ERROR Unknown command: TIME_LEFT",
            "# X before move 1: MESSAGE thinking about 0 stones",
            "# X before move 1: DEBUG size 15 \\x1b[2J",
            "# X before move 3: ERROR Unknown command: TIME_LEFT",
        ],
        "{replay}"
    );
    let moves = replay.lines().take_while(|line| !line.starts_with('#'));
    assert!(
        moves.clone().count() >= 9
            && moves
                .clone()
                .all(|line| line.split(' ').all(|n| n.parse::<u8>().is_ok())),
        "{replay}"
    );

    // An engine built elsewhere, an executable, plays the same.
    let built = tempfile::tempdir().unwrap();
    let program = built.path().join("testbrain");
    let gcc = std::process::Command::new("gcc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(&program)
        .arg(engine_file("engine"))
        .status()
        .unwrap();
    assert!(gcc.success());
    let executable = format!("gomocup:{}", program.display());
    let said = battle(course.path(), &["random", &executable]);
    assert!(said.contains("random (X) against testbrain (O)"), "{said}");
    assert!(results(&said)[0].ends_with("made five"), "{said}");

    // It keeps to the protocol a manager speaks: it answers ABOUT, says nothing to INFO,
    // and plays from a BOARD position (x,y,1 its own stone, x,y,2 the opponent's).
    let mut session = std::process::Command::new(&program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    session
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"START 15\r\nINFO timeout_turn 1000\r\nABOUT\r\nBOARD\r\n7,7,2\r\n0,0,1\r\n\
              8,7,2\r\n1,0,1\r\n9,7,2\r\n2,0,1\r\n10,7,2\r\nDONE\r\nEND\r\n",
        )
        .unwrap();
    let output = session.wait_with_output().unwrap();
    let answers: Vec<String> = stdout_of(&output)
        .lines()
        .filter(|line| !line.starts_with("MESSAGE") && !line.starts_with("DEBUG"))
        .map(String::from)
        .collect();
    assert_eq!(answers[0], "OK");
    assert!(answers[1].starts_with("name=\"testbrain\""), "{answers:?}");
    // The opponent's four on row 7, columns 7 to 10: blocked at its end nearer the centre.
    assert_eq!(answers[2], "6,7", "{answers:?}");
    assert_eq!(answers.len(), 3, "{answers:?}");
}

/// An engine that behaves as Rapfi does (its hash table the whole `max_memory` it is told,
/// sized, allocated and cleared as Rapfi's; a pool of eight search threads, one with a
/// large stack, all busy for the whole `timeout_turn`, and eight more to clear its
/// table): it has its memory and its threads (no `ERROR Failed` line: a thread it could
/// not start, or a table it could not allocate, would say one), and plays its game out
/// within the tolerance above its time, and loses on time without one. One that uses
/// more than its memory and the room above it is ended.
#[test]
fn an_engine_that_sizes_its_memory_and_uses_its_whole_turn_plays_its_games() {
    let course = copy_course(&repo());
    let built = tempfile::tempdir().unwrap();
    let program = built.path().join("thinker");
    let gcc = std::process::Command::new("gcc")
        .args(["-std=c99", "-O2", "-DWHOLE_TURN", "-pthread", "-o"])
        .arg(&program)
        .arg(engine_file("engine"))
        .status()
        .unwrap();
    assert!(gcc.success());
    let thinker = format!("gomocup:{}", program.display());
    // Its first move comes after it clears its 256 MB table: 0.3 s on a quiet machine,
    // 2.8 s measured at a load average of 23 on two cores, which with its whole second
    // overran the first move's 3 s (its second, the default tolerance's, the start-up's).
    // c-gomoku-cli's 3 s of tolerance covers a busy machine.
    let said = battle(
        course.path(),
        &[&thinker, "random", "--time-tolerance", "3000"],
    );
    assert!(
        results(&said)[0].starts_with("testbrain (X) won in") && said.contains("made five"),
        "{said}"
    );
    let replay = std::fs::read_to_string(course.path().join("battle/game-1.txt")).unwrap();
    assert!(
        replay.contains("# X before move 1: MESSAGE") && !replay.contains("ERROR Failed"),
        "its table and its threads: {replay}"
    );
    // Its address space is larger than its memory, but not the memory it uses: twice the
    // 256 MB it is told is past the 128 MB of room above it.
    let said = battle(course.path(), &[&engine("hog"), "random"]);
    assert!(said.contains("random (O) won"), "{said}");
    assert!(said.contains("it ran out of its 384 MB"), "{said}");
    let said = battle(
        course.path(),
        &[&thinker, "random", "--time-tolerance", "0"],
    );
    assert!(
        // At its first move (2000 ms with the start-up's second) when clearing its table
        // took long, else at a later one (1000 ms).
        said.contains("X: no move within 1000 ms (move ")
            || said.contains("X: no move within 2000 ms (move 1)"),
        "no tolerance, lost on time: {said}"
    );
}

#[test]
fn an_engine_that_breaks_the_protocol_loses_with_the_reason() {
    let course = copy_course(&repo());
    for (name, reason) in [
        (
            "says_error",
            "random (O) won by forfeit: X: answered START 15 with 'ERROR only 20x20 boards', not OK",
        ),
        (
            "occupies",
            "random (O) won in 2 moves: X: illegal move 7,7 (column 7, row 7: occupied by X) on move 3",
        ),
        (
            "late",
            "random (O) won in 2 moves: X: no move within 2000 ms (move 3)",
        ),
        // What the referee cannot see, the engine's run says: how it ended, and the first
        // line of its stderr, escaped.
        (
            "cannot_start",
            "random (O) won by forfeit: X ended before it answered START 15 (it exited with \
             status 3; its stderr: cannot open its opening book \\x1b[2J(book.bin))",
        ),
    ] {
        let said = battle(course.path(), &[&engine(name), "random"]);
        assert!(said.contains(reason), "{name}: {said}");
    }
    // As O, the START it did not answer is its fault too: the first move is never asked.
    let said = battle(course.path(), &["random", &engine("says_error")]);
    assert!(
        said.contains("random (X) won by forfeit: O: answered START 15"),
        "{said}"
    );
}

#[test]
fn engines_enter_a_tournament_named_by_their_file_and_labelled_by_their_answer_to_about() {
    let course = copy_course(&repo());
    let root = course.path();
    let dir = root.join("class/ana/exercises");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(repo().join("solutions/ai.c"), dir.join("ai.c")).unwrap();
    let output = clings(root)
        .args(["tournament", "class", "--bot", "random"])
        .arg("--engine")
        .arg(engine_file("engine"))
        .arg("--engine")
        .arg(engine_file("occupies"))
        .args(["--out", "t"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("t/tournament.json")).unwrap()).unwrap();
    let players = common::tournament_players(&root.join("t/tournament.json"));
    // An engine is named by its file, whatever it answers to ABOUT: its label.
    assert_eq!(
        players,
        ["ana", "bot random", "engine engine", "engine occupies"]
    );
    assert_eq!(document["players"][2]["engine"]["about"], "testbrain");
    assert!(
        stdout_of(&output).contains("engine engine “testbrain”"),
        "the label beside the name: {}",
        stdout_of(&output)
    );
    assert!(document["players"][3]["engine"]["about"].is_null());
    // The engines' time beyond what they were told, the same for all, is on the record,
    // and so is what they said.
    assert_eq!(document["time_tolerance_ms"], 1000, "{document}");
    let games = document["games"].as_array().unwrap();
    assert_eq!(games.len(), 12);
    assert!(
        games.iter().any(|game| game["said"][0]["text"]
            .as_str()
            .is_some_and(|text| text.starts_with("ERROR Failed to allocate"))),
        "{document}"
    );
    for game in games {
        let reason = game["reason"].as_str().unwrap();
        match game["x"] == "engine occupies" || game["o"] == "engine occupies" {
            true => assert!(reason.contains("illegal move 7,7"), "{game}"),
            false => assert!(reason.ends_with("made five"), "{game}"),
        }
    }
}

/// `clings pbrain PLAYER` on a pipe, as a Gomocup manager starts a brain.
struct Brain {
    child: Child,
    to: ChildStdin,
    from: BufReader<ChildStdout>,
}

impl Brain {
    fn start(course: &Path, player: &str) -> Brain {
        let mut child = clings_process(course)
            .args(["pbrain", player])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let to = child.stdin.take().unwrap();
        let from = BufReader::new(child.stdout.take().unwrap());
        Brain { child, to, from }
    }

    /// Sends `command` (CR LF ended, as managers do) and reads the answer's line.
    fn ask(&mut self, command: &str) -> String {
        self.tell(command);
        let mut line = String::new();
        self.from.read_line(&mut line).unwrap();
        line.trim_end().to_string()
    }

    /// Sends `command`, which has no answer.
    fn tell(&mut self, command: &str) {
        write!(self.to, "{command}\r\n").unwrap();
        self.to.flush().unwrap();
    }
}

#[test]
fn pbrain_answers_a_managers_session_for_a_lesson_player() {
    let course = copy_course(&repo());
    let mut brain = Brain::start(course.path(), "solutions/ai.c");
    let session = [
        ("ABOUT", "name=\""),
        (
            "START 20",
            "ERROR this brain plays on a 15x15 board only, the lesson's",
        ),
        (
            "RECTSTART 15,20",
            "ERROR this brain plays on a 15x15 board only, the lesson's",
        ),
        ("START 15", "OK"),
        ("INFO timeout_turn 1000", ""),
        ("INFO timeout_match 180000", ""),
        ("INFO max_memory 83886080", ""),
        ("INFO rule 0", ""),
        // The lesson's solution opens in the centre; x,y is the column, then the row.
        ("BEGIN", "7,7"),
        // The opponent at column 8, row 7: the solution blocks beside its own stone.
        ("TURN 8,7", "7,6"),
        // Take both moves back and play them again: a new run of the player replays its
        // game and answers the same.
        ("TAKEBACK 7,6", "OK"),
        ("TAKEBACK 8,7", "OK"),
        ("TURN 8,7", "7,6"),
        (
            "TURN 99,99",
            "ERROR TURN 99,99: not an empty cell x,y of the board",
        ),
        (
            "TURN 8,7",
            "ERROR TURN 8,7: not an empty cell x,y of the board",
        ),
        ("RESTART", "OK"),
        ("TURN 7,7", "7,6"),
        ("FOO", "UNKNOWN FOO"),
    ];
    for (command, expected) in session {
        match expected {
            "" => brain.tell(command),
            _ => {
                let answer = brain.ask(command);
                assert!(answer.starts_with(expected), "{command}: {answer:?}");
            }
        }
    }
    // BOARD: a position of its own game, in order, is played again; one with a stone it
    // would not have played is refused, saying so.
    brain.tell("BOARD");
    for line in ["7,7,1", "8,7,2", "7,6,1", "0,0,2"] {
        brain.tell(line);
    }
    let answer = brain.ask("DONE");
    assert!(answer.split(',').count() == 2, "{answer}");
    // A Gomoku manager may list the stones in any order: each side's order is what counts.
    brain.tell("BOARD");
    for line in ["7,7,1", "7,6,1", "8,7,2", "0,0,2"] {
        brain.tell(line);
    }
    assert_eq!(
        brain.ask("DONE"),
        answer,
        "the same position, listed otherwise"
    );
    brain.tell("BOARD");
    for line in ["7,7,2", "0,14,1", "3,3,2"] {
        brain.tell(line);
    }
    let answer = brain.ask("DONE");
    assert!(
        answer.starts_with("ERROR the player chose 7,6 where the position has its stone at 0,14"),
        "{answer}"
    );
    brain.tell("END");
    let status = brain.child.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut brain.from, &mut rest).unwrap();
    assert_eq!(rest, "", "nothing after END");
    assert!(status.success(), "{status:?}");
}

/// A manager's game, as piskvork plays one: START both brains, BEGIN to the first, each
/// move passed to the other as TURN, until a five; every move checked.
fn managed_game(first: &mut Brain, second: &mut Brain) -> (usize, usize) {
    for brain in [&mut *first, &mut *second] {
        assert_eq!(brain.ask("START 15"), "OK");
        brain.tell("INFO timeout_turn 1000");
    }
    let mut board = [[0usize; 15]; 15];
    let mut reply = first.ask("BEGIN");
    for number in 1..=225 {
        let (x, y) = reply
            .split_once(',')
            .map(|(x, y)| (x.parse::<usize>().unwrap(), y.parse::<usize>().unwrap()))
            .unwrap_or_else(|| panic!("move {number}: {reply:?}"));
        let mover = 1 + (number + 1) % 2;
        assert_eq!(board[y][x], 0, "move {number}: {reply} is taken");
        board[y][x] = mover;
        if five_through(&board, x, y) {
            return (mover, number);
        }
        let next = match mover {
            1 => &mut *second,
            _ => &mut *first,
        };
        reply = next.ask(&format!("TURN {x},{y}"));
    }
    (0, 225)
}

fn five_through(board: &[[usize; 15]; 15], x: usize, y: usize) -> bool {
    let who = board[y][x];
    [(1i32, 0i32), (0, 1), (1, 1), (1, -1)]
        .iter()
        .any(|&(dx, dy)| {
            let count = |sign: i32| {
                (1..5)
                    .take_while(|k| {
                        let (cx, cy) = (x as i32 + sign * k * dx, y as i32 + sign * k * dy);
                        (0..15).contains(&cx)
                            && (0..15).contains(&cy)
                            && board[cy as usize][cx as usize] == who
                    })
                    .count()
            };
            1 + count(1) + count(-1) >= 5
        })
}

#[test]
fn a_lesson_player_through_pbrain_plays_a_whole_managed_game_against_a_bot() {
    let course = copy_course(&repo());
    // The lesson's solution beats random as either colour (referees/README.md).
    for solution_first in [true, false] {
        let mut student = Brain::start(course.path(), "solutions/ai.c");
        let mut bot = Brain::start(course.path(), "random");
        let (winner, moves) = match solution_first {
            true => managed_game(&mut student, &mut bot),
            false => managed_game(&mut bot, &mut student),
        };
        let student_stone = if solution_first { 1 } else { 2 };
        assert_eq!(winner, student_stone, "after {moves} moves");
        for mut brain in [student, bot] {
            brain.tell("END");
            let output = brain.child.wait_with_output().unwrap();
            assert!(output.status.success(), "{}", stderr_of(&output));
        }
    }
}

impl Brain {
    /// Sends `bytes` as they are (a manager's code page), CR LF ended.
    fn send(&mut self, bytes: &[u8]) {
        self.to.write_all(bytes).unwrap();
        self.to.write_all(b"\r\n").unwrap();
        self.to.flush().unwrap();
    }

    fn answer(&mut self) -> String {
        let mut line = Vec::new();
        self.from.read_until(b'\n', &mut line).unwrap();
        String::from_utf8_lossy(&line).trim_end().to_string()
    }
}

/// A manager that sends Latin-1 (piskvork's `INFO folder` in a Windows code page) and
/// lines `clings pbrain` cannot parse, for a player whose folder's name holds newlines:
/// every command is answered, in one line each, and nothing is forged.
#[test]
fn pbrain_answers_every_command_of_a_manager_that_sends_bytes_and_odd_names() {
    let course = copy_course(&repo());
    let odd = course.path().join("ana\nOK\nOK");
    std::fs::create_dir_all(odd.join("exercises")).unwrap();
    std::fs::copy(repo().join("solutions/ai.c"), odd.join("exercises/ai.c")).unwrap();
    let mut brain = Brain::start(course.path(), "ana\nOK\nOK");
    brain.send(b"INFO folder C:\\Users\\Jos\xe9\\brains");
    brain.send(b"ABOUT");
    let about = brain.answer();
    assert!(
        about.starts_with("name=\"ana\\nOK\\nOK\""),
        "one line, the name escaped: {about:?}"
    );
    brain.send(b"START 15");
    assert_eq!(brain.answer(), "OK", "no forged answer before it");
    brain.send(b"TURN 7,\xe9");
    let answer = brain.answer();
    assert!(answer.starts_with("ERROR TURN 7,\u{fffd}"), "{answer:?}");
    brain.send(b"TURN 7,7\x1b[2J");
    let answer = brain.answer();
    assert!(answer.starts_with("ERROR TURN 7,7\\x1b[2J"), "{answer:?}");
    brain.send(b"\xe9T\x1b");
    assert_eq!(brain.answer(), "UNKNOWN \u{fffd}T\\x1b");
    brain.send(b"BEGIN");
    assert_eq!(brain.answer(), "7,7");
    brain.send(b"END");
    assert!(brain.child.wait().unwrap().success());
}

/// The processor time of `pid` and every process below it, in clock ticks.
fn cpu_ticks_below(pid: u32) -> u64 {
    let mut processes: Vec<(u32, u32, u64)> = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ... utime stime: the fields after the command's name.
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let own: u32 = head.split(' ').next().unwrap().parse().unwrap();
        let parent: u32 = fields[1].parse().unwrap();
        let ticks = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        processes.push((own, parent, ticks));
    }
    let mut below = vec![pid];
    let mut total = 0;
    while let Some(next) = below.pop() {
        for &(own, parent, ticks) in &processes {
            if parent == next {
                below.push(own);
                total += ticks;
            }
        }
    }
    total
}

/// A player whose children spin for ever: between its turns, while the manager waits for
/// the other engine, its processes are stopped and use no processor time.
#[test]
fn pbrain_stops_a_spinning_player_between_its_turns() {
    let course = copy_course(&repo());
    let mut brain = Brain::start(
        course.path(),
        repo()
            .join("tests/programs/battle/starver.c")
            .to_str()
            .unwrap(),
    );
    assert_eq!(brain.ask("START 15"), "OK");
    assert_eq!(brain.ask("BEGIN"), "0,0");
    let pid = brain.child.id();
    // The stop is ordered before the move goes to the manager, and takes effect once the
    // sandbox's init is scheduled: on a machine as busy as CI's, tens of milliseconds
    // later, while 15 spinners share the cores. What follows is the opponent's time.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let before = cpu_ticks_below(pid);
    std::thread::sleep(std::time::Duration::from_secs(2));
    let spent = cpu_ticks_below(pid) - before;
    // A tick or two for clings' own threads; spinning, the children took both cores.
    assert!(spent <= 5, "{spent} ticks between its turns");
    assert_eq!(brain.ask("TURN 7,7"), "1,0", "it plays on");
    brain.tell("END");
    assert!(brain.child.wait().unwrap().success());
}

/// An engine whose answer to ABOUT changes from run to run (it names the time): the shards
/// of one tournament still name it alike, and merge; the same name with another file is
/// another tournament's.
#[test]
fn shards_with_an_engine_that_names_the_time_merge() {
    let course = copy_course(&repo());
    let root = course.path();
    std::fs::create_dir_all(root.join("class")).unwrap();
    let play = |shard: &str, engine: &Path| {
        let output = clings(root)
            .args(["tournament", "class", "--bot", "random", "--engine"])
            .arg(engine)
            .args(["--shard", shard, "--out", &format!("shard-{}", &shard[..1])])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    };
    let engine = root.join("names_the_time.c");
    std::fs::copy(engine_file("names_the_time"), &engine).unwrap();
    play("1/2", &engine);
    play("2/2", &engine);
    let merge = || {
        clings(root)
            .args(["tournament", "--merge", "shard-1/tournament.json"])
            .args(["shard-2/tournament.json", "--out", "merged"])
            .output()
            .unwrap()
    };
    let merged = merge();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr_of(&merged));
    let players = common::tournament_players(&root.join("merged/tournament.json"));
    assert_eq!(players, ["bot random", "engine names_the_time"]);
    // Another file under the same name: refused.
    let mut source = std::fs::read_to_string(&engine).unwrap();
    source.push_str("/* another build */\n");
    std::fs::write(&engine, source).unwrap();
    std::fs::remove_dir_all(root.join("merged")).unwrap();
    play("2/2", &engine);
    common::assert_error(&merge(), "is not of the tournament of");
}

/// Two engines given as folders, as Gomocup ships them (the brain `pbrain-NAME` beside its
/// weights), in a tournament with a bot, isolated by `tier`: each reads its weights in
/// its working directory, counts its games in the folder it is told (`INFO folder`),
/// one at a time, and plays every game to its end; neither reads a file beside its
/// folder, writes to its folder, or finds the other's. Their identity covers their
/// files: the one whose weights changed is another engine, and its shard does not merge.
/// As root each run has a user of its own; as a normal user the runs share one, and only
/// the sandbox keeps an engine out of the other's folder.
fn engines_given_as_folders_read_their_files_and_keep_their_own(
    tier: common::Tier,
    unprivileged: bool,
) {
    let course = copy_course(&repo());
    let root = course.path();
    std::fs::create_dir_all(root.join("class")).unwrap();
    let engines = root.join("engines");
    let secret = engines.join("secret.txt");
    std::fs::create_dir_all(&engines).unwrap();
    std::fs::write(&secret, "not the engines'\n").unwrap();
    for (name, weights) in [("left", "w-left"), ("right", "w-right")] {
        let folder = engines.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        let gcc = std::process::Command::new("gcc")
            .args(["-std=c99", "-O2", "-o"])
            .arg(folder.join(format!("pbrain-{name}")))
            .arg(format!("-DSECRET=\"{}\"", secret.display()))
            .arg(engine_file("folder_brain"))
            .status()
            .unwrap();
        assert!(gcc.success());
        std::fs::write(folder.join("weights.txt"), format!("{weights}\n")).unwrap();
    }
    let play = |shard: &str, out: &str| {
        let mut command = tier.as_user(root, unprivileged)?;
        command
            .args(["tournament", "class", "--bot", "random", "--shard", shard])
            .args([
                "--engine",
                "engines/left",
                "--engine",
                "engines/right",
                "--out",
                out,
            ]);
        let output = command.output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{tier:?}, unprivileged={unprivileged}: {}{}",
            stdout_of(&output),
            stderr_of(&output)
        );
        tier.check_said(&stderr_of(&output));
        Some(())
    };
    if play("1/1", "t").is_none() {
        return;
    }
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("t/tournament.json")).unwrap()).unwrap();
    let players = common::tournament_players(&root.join("t/tournament.json"));
    assert_eq!(players, ["bot random", "engine left", "engine right"]);
    assert_eq!(document["players"][1]["engine"]["about"], "folderbrain");
    let games = document["games"].as_array().unwrap();
    assert_eq!(games.len(), 6);
    for (engine, weights) in [("engine left", "w-left"), ("engine right", "w-right")] {
        let mut counted = Vec::new();
        for game in games {
            let reason = game["reason"].as_str().unwrap();
            assert!(
                reason.ends_with("made five") || reason.starts_with("draw"),
                "{tier:?}: a legal end, no forfeit: {game}"
            );
            let stone = match (game["x"] == engine, game["o"] == engine) {
                (true, _) => "X",
                (_, true) => "O",
                _ => continue,
            };
            let said: Vec<&str> = game["said"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|line| line["stone"] == stone)
                .map(|line| line["text"].as_str().unwrap())
                .collect();
            let count = said
                .iter()
                .find_map(|text| text.strip_prefix(&format!("MESSAGE weights {weights} game ")))
                .unwrap_or_else(|| panic!("{tier:?}: its weights, its count: {said:?}"));
            counted.push(count.parse::<u32>().unwrap());
            assert!(
                said.contains(&"MESSAGE secret hidden, own folder read-only, others seen 0"),
                "{tier:?}: {engine} saw outside its folders: {said:?}"
            );
        }
        counted.sort();
        assert_eq!(
            counted,
            [1, 2, 3, 4],
            "{tier:?}: {engine}'s games, one at a time"
        );
    }
    // The folders' copies and the folders kept went with the tournament.
    let written = std::fs::read_dir(engines.join("left")).unwrap().count();
    assert_eq!(written, 2, "the engine's own folder is as it was");
    // The same files merge; other weights are another engine.
    let merge = || {
        clings(root)
            .args([
                "tournament",
                "--merge",
                "s1/tournament.json",
                "s2/tournament.json",
            ])
            .args(["--out", "merged"])
            .output()
            .unwrap()
    };
    play("1/2", "s1").unwrap();
    play("2/2", "s2").unwrap();
    let merged = merge();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr_of(&merged));
    std::fs::write(engines.join("right/weights.txt"), "w-other\n").unwrap();
    play("2/2", "s2").unwrap();
    common::assert_error(&merge(), "is not of the tournament of");
}

#[test]
fn engines_given_as_folders_in_bubblewrap() {
    for unprivileged in [false, true] {
        engines_given_as_folders_read_their_files_and_keep_their_own(
            common::Tier::Bubblewrap,
            unprivileged,
        );
    }
}

#[test]
fn engines_given_as_folders_in_the_container_tier() {
    engines_given_as_folders_read_their_files_and_keep_their_own(
        common::Tier::ContainerLike,
        false,
    );
    engines_given_as_folders_read_their_files_and_keep_their_own(common::Tier::Container, true);
}

/// An engine given as a folder runs in a sandbox of its own (not a warm one, which cannot
/// show a folder), and is stopped there too while its opponent moves: its fifteen spinning
/// children take nothing from the thinker, which makes its five in time (issue 26's
/// starver, as an engine).
#[test]
fn an_engine_given_as_a_folder_is_stopped_while_its_opponent_moves() {
    let course = copy_course(&repo());
    let folder = course.path().join("spinner");
    std::fs::create_dir_all(&folder).unwrap();
    let gcc = std::process::Command::new("gcc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(folder.join("pbrain-spinner"))
        .arg(engine_file("folder_brain"))
        .status()
        .unwrap();
    assert!(gcc.success());
    std::fs::write(folder.join("weights.txt"), "w\n").unwrap();
    std::fs::write(folder.join("spin"), "").unwrap();
    let thinker = repo().join("tests/programs/battle/thinker.c");
    let output = clings(course.path())
        .args(["--require-isolation", "battle"])
        .arg(&thinker)
        .arg(format!("gomocup:{}", folder.display()))
        .output()
        .unwrap();
    let said = stdout_of(&output);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{said}{}",
        stderr_of(&output)
    );
    assert!(!said.contains("no move within"), "{said}");
    assert!(said.contains("thinker.c (X) won in 9 moves"), "{said}");
}

/// An opening book (`--openings`): two engines play each opening with either colour, told
/// the position by BOARD (the side to move at once, the other when its turn comes), and
/// play on to a legal end; a lesson player's games start from an empty board. The book is
/// in tournament.json: shards merge with it, and a game that does not start from its
/// opening is refused; a bad line of the book is named.
#[test]
fn two_engines_play_each_opening_of_a_book_with_either_colour() {
    let course = copy_course(&repo());
    let root = course.path();
    std::fs::create_dir_all(root.join("class")).unwrap();
    let folder = root.join("brain");
    std::fs::create_dir_all(&folder).unwrap();
    let gcc = std::process::Command::new("gcc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(folder.join("pbrain-brain"))
        .arg(engine_file("folder_brain"))
        .status()
        .unwrap();
    assert!(gcc.success());
    std::fs::write(folder.join("weights.txt"), "w\n").unwrap();
    // Two openings: three stones (O to move next), and one (then X's second).
    std::fs::write(root.join("book.txt"), "# the book\n7,7 8,8 9,7\n3,11\n").unwrap();
    let play = |shard: &str, out: &str| {
        let output = clings(root)
            .args([
                "tournament",
                "class",
                "--bot",
                "random",
                "--openings",
                "book.txt",
            ])
            .arg("--engine")
            .arg(engine_file("engine"))
            .args(["--engine", "brain", "--shard", shard, "--out", out])
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}{}",
            stdout_of(&output),
            stderr_of(&output)
        );
    };
    play("1/1", "t");
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("t/tournament.json")).unwrap()).unwrap();
    assert_eq!(
        document["openings"],
        serde_json::json!([[[7, 7], [8, 8], [7, 9]], [[11, 3]]]),
        "as [row, col]"
    );
    let games = document["games"].as_array().unwrap();
    // bot v each engine twice, the engines twice an opening.
    assert_eq!(games.len(), 2 + 2 + 4);
    let mut from_book = Vec::new();
    for game in games {
        let reason = game["reason"].as_str().unwrap();
        assert!(
            reason.ends_with("made five") || reason.starts_with("draw"),
            "a legal end: {game}"
        );
        let moves: Vec<(String, u64, u64)> = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["stone"].as_str().unwrap().to_string(),
                    m["row"].as_u64().unwrap(),
                    m["col"].as_u64().unwrap(),
                )
            })
            .collect();
        let engines = game["x"] != "bot random" && game["o"] != "bot random";
        let first = (moves[0].1, moves[0].2);
        match engines {
            true => from_book.push((
                game["x"].as_str().unwrap().to_string(),
                first,
                moves.len() > 3,
            )),
            false => assert_ne!(
                first,
                (11, 3),
                "a lesson player's game starts empty: {game}"
            ),
        }
    }
    let colours = |opening: (u64, u64)| -> Vec<String> {
        let mut x: Vec<String> = from_book
            .iter()
            .filter(|(_, first, _)| *first == opening)
            .map(|(x, _, played_on)| {
                assert!(played_on, "played on past the opening");
                x.clone()
            })
            .collect();
        x.sort();
        x
    };
    for opening in [(7, 7), (11, 3)] {
        assert_eq!(
            colours(opening),
            ["engine brain", "engine engine"],
            "{opening:?}: {from_book:?}"
        );
    }
    // Shards merge with the book; a game moved off its opening is refused.
    play("1/2", "s1");
    play("2/2", "s2");
    let merge = || {
        clings(root)
            .args([
                "tournament",
                "--merge",
                "s1/tournament.json",
                "s2/tournament.json",
            ])
            .args(["--out", "merged"])
            .output()
            .unwrap()
    };
    let merged = merge();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr_of(&merged));
    for shard in ["s1", "s2"] {
        let path = root.join(shard).join("tournament.json");
        let mut document: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let games = document["games"].as_array_mut().unwrap();
        if let Some(game) = games.iter_mut().find(|game| {
            game["x"] != "bot random" && game["o"] != "bot random" && game["moves"][0]["row"] == 7
        }) {
            game["moves"][0]["col"] = serde_json::json!(6);
            std::fs::write(&path, serde_json::to_vec(&document).unwrap()).unwrap();
        }
    }
    common::assert_error(&merge(), "does not start from opening 1");
    // A bad line is named.
    std::fs::write(root.join("book.txt"), "7,7\n7,7 7,7\n").unwrap();
    let output = clings(root)
        .args([
            "tournament",
            "class",
            "--bot",
            "random",
            "--openings",
            "book.txt",
        ])
        .arg("--engine")
        .arg(engine_file("engine"))
        .output()
        .unwrap();
    common::assert_error(&output, "book.txt:2:");
}

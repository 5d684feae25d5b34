//! Battles and tournaments: players built and isolated by clings, games judged by the
//! shipped course's referee in its battle mode. A player that cheats, crashes, hangs or
//! writes garbage loses its game, and a tournament goes on.

use crate::common;

use common::{battle, clings, copy_course, repo, stderr_of, stdout_of};

/// A player of `tests/programs/battle/`.
fn program(name: &str) -> String {
    repo()
        .join(format!("tests/programs/battle/{name}.c"))
        .display()
        .to_string()
}

#[test]
fn two_bots_play_games_colours_alternating_with_a_board_and_a_replay_each() {
    let course = copy_course(&repo());
    let said = battle(
        course.path(),
        &["strong", "random", "--games", "2", "--seed", "5"],
    );
    assert!(
        said.contains("game 1 of 2: strong (X) against random (O), seed 5"),
        "{said}"
    );
    assert!(
        said.contains("game 2 of 2: random (X) against strong (O), seed 6"),
        "{said}"
    );
    assert!(
        said.contains("score after 2 games: strong 2 - 0 random"),
        "{said}"
    );
    // The final board of each game shows the five, without colour in a pipe.
    assert_eq!(said.matches("    0  1  2  3").count(), 2, "{said}");
    assert!(
        said.lines()
            .any(|line| line.matches("[X]").count() >= 2 || line.contains("[O]")),
        "{said}"
    );
    assert!(
        !said.contains('\x1b'),
        "no escape sequence when not a terminal"
    );
    for game in ["game-1.txt", "game-2.txt"] {
        let replay = std::fs::read_to_string(course.path().join("battle").join(game)).unwrap();
        let moves: Vec<&str> = replay.lines().collect();
        assert!(moves.len() >= 9, "{replay}");
        assert!(
            moves.iter().all(|line| {
                let cells: Vec<u8> = line.split(' ').filter_map(|n| n.parse().ok()).collect();
                cells.len() == 2 && cells.iter().all(|&n| n < 15)
            }),
            "the replay exercise's format: {replay}"
        );
    }
}

#[test]
fn a_player_that_cheats_crashes_hangs_or_talks_nonsense_loses() {
    let course = copy_course(&repo());
    for (player, why) in [
        ("occupies", "illegal move 7 7 (occupied by X)"),
        ("crashes", "X ended before the game did"),
        ("silent", "X: no move within"),
        ("garbage", "X: garbage line 'hello ?[2J world'"),
    ] {
        let said = battle(course.path(), &[&program(player), "random"]);
        assert!(said.contains("random (O) won"), "{player}: {said}");
        assert!(said.contains(why), "{player}: {said}");
        assert!(
            !said.contains('\x1b'),
            "{player}: the player's bytes are shown escaped"
        );
    }
    // The referee sees only that the player ended; its run says how.
    let said = battle(course.path(), &[&program("crashes"), "random"]);
    assert!(
        said.contains(
            "X ended before the game did, at move 1 (the sanitizer stopped it: crashes.c:"
        ) || said.contains("X ended before the game did, at move 1 (it crashed with SIGSEGV)"),
        "{said}"
    );
    // A player that ended before the game did forfeits, whatever the moves played, said one
    // way, with how its run ended.
    assert!(
        said.contains("random (O) won by forfeit: X ended before"),
        "{said}"
    );
    let said = battle(course.path(), &["random", &program("quits")]);
    assert!(
        said.contains(
            "random (X) won by forfeit: O ended before the game did, at move 2 (it exited with status 0)"
        ),
        "{said}"
    );
    assert!(!said.contains(" won in "), "{said}");
}

/// A player's name is what its path says, and a student's folder may be named anything:
/// the name is shown escaped. So is what the compiler says of a player that does not
/// compile, which quotes its source.
#[test]
fn a_players_name_and_its_compiler_errors_are_shown_escaped() {
    let course = copy_course(&repo());
    let folder = course.path().join("class/eve\x1b]0;pwned\x07");
    std::fs::create_dir_all(folder.join("exercises")).unwrap();
    std::fs::copy(repo().join("solutions/ai.c"), folder.join("exercises/ai.c")).unwrap();
    let said = battle(course.path(), &[folder.to_str().unwrap(), "random"]);
    assert!(
        said.contains("eve\\x1b]0;pwned\\x07 (X) against random"),
        "{said}"
    );
    assert!(!said.contains(['\x1b', '\x07']), "{said:?}");
    std::fs::write(
        folder.join("exercises/ai.c"),
        b"#error \"\x01\xc2\x9b2J\r\x1b]0;pwned\x07\"\n",
    )
    .unwrap();
    let output = clings(course.path())
        .args(["battle", folder.to_str().unwrap(), "random"])
        .output()
        .unwrap();
    let error = common::stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{error}");
    assert!(
        error.contains("does not compile") && error.contains("\\x01"),
        "{error}"
    );
    assert!(
        !error.contains(['\x01', '\u{9b}', '\r', '\x1b', '\x07']),
        "{error:?}"
    );
}

/// A student whose program does not compile, and whose folder's name holds a terminal's
/// escape sequence.
const CAI: &str = "cai\x1b]0;pwned\x07";

#[test]
fn a_class_tournament_plays_every_pair_twice_and_a_player_that_does_not_compile_forfeits() {
    let course = copy_course(&repo());
    let root = course.path();
    let submissions = root.join("class");
    for (student, source) in [
        ("ana", repo().join("solutions/ai.c")),
        ("ben", repo().join("tests/programs/battle/occupies.c")),
        (CAI, repo().join("tests/programs/compile_error.c")),
    ] {
        let dir = submissions.join(student).join("exercises");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(source, dir.join("ai.c")).unwrap();
    }
    let run = |extra: &[&str]| {
        let output = clings(root)
            .args(["tournament", "class", "--bot", "random"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            common::stderr_of(&output)
        );
        output
    };
    let output = run(&["--out", "whole"]);
    let said = stdout_of(&output);
    // cai's folder name holds a terminal's escape: shown as text, in games and standings.
    let stderr = common::stderr_of(&output);
    assert!(
        stderr.contains("cai\\x1b]0;pwned\\x07 forfeits every game"),
        "{stderr}"
    );
    // With the compiler's first error, not a sentence that stops at its colon.
    let forfeit = stderr
        .lines()
        .find(|line| line.contains("forfeits every game"))
        .unwrap();
    assert!(
        forfeit.contains("does not compile: ") && forfeit.contains("error: expected"),
        "{forfeit}"
    );
    assert!(said.contains("cai\\x1b]0;pwned\\x07 (X) v "), "{said}");
    let shown = format!("{said}{}", common::stderr_of(&output));
    assert!(!shown.contains(['\x1b', '\x07']), "{shown:?}");
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("whole/tournament.json")).unwrap())
            .unwrap();
    let games = document["games"].as_array().unwrap();
    assert_eq!(games.len(), 12, "4 players, each pair twice");
    let players = ["ana", "ben", CAI, "bot random"];
    for first in players {
        for second in players {
            let meetings = games
                .iter()
                .filter(|game| game["x"] == first && game["o"] == second)
                .count();
            assert_eq!(meetings, usize::from(first != second), "{first} v {second}");
        }
    }
    // cai loses all six by forfeit, without a move; ana beats ben and random.
    let csv = std::fs::read_to_string(root.join("whole/standings.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|line| line.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 4, "{csv}");
    assert_eq!(&rows[0][1..7], ["ana", "6", "6", "0", "0", "6"], "{csv}");
    let cai = rows.iter().find(|row| row[1] == CAI).unwrap();
    assert_eq!(&cai[2..7], ["6", "0", "0", "6", "0"], "{csv}");
    assert!(
        games
            .iter()
            .filter(|game| game["reason"] == format!("{CAI} does not compile"))
            .count()
            == 6
    );
    assert!(said.contains("crosstable"), "{said}");
    assert_eq!(
        std::fs::read_dir(root.join("whole/games")).unwrap().count(),
        12
    );
    // One numbering, from 1: the log's, the document's and the replay file's.
    let mut numbers: Vec<u64> = games
        .iter()
        .map(|game| game["number"].as_u64().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=12).collect::<Vec<u64>>());
    // The log shows cai's name escaped.
    let shown = |name: &serde_json::Value| {
        let name = name.as_str().unwrap();
        name.replace('\x1b', "\\x1b").replace('\x07', "\\x07")
    };
    for game in games {
        let number = game["number"].as_u64().unwrap();
        let logged = format!(
            "] game {number}: {} (X) v {} (O): ",
            shown(&game["x"]),
            shown(&game["o"])
        );
        assert!(said.contains(&logged), "{logged}\n{said}");
        let moves: String = game["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|step| format!("{} {}\n", step["row"], step["col"]))
            .collect();
        let replay = root.join(format!("whole/games/{number:04}.txt"));
        assert_eq!(std::fs::read_to_string(replay).unwrap(), moves, "{number}");
    }
    assert!(
        said.contains("4 players, 12 games (each pair plays two games, colours swapped; seed 1)."),
        "{said}"
    );

    // Two shards, merged, are the whole tournament.
    run(&["--shard", "1/2", "--out", "one"]);
    run(&["--shard", "2/2", "--out", "two"]);
    let merged = clings(root)
        .args([
            "tournament",
            "--merge",
            "one/tournament.json",
            "two/tournament.json",
            "--out",
            "merged",
            "--html",
            "merged.html",
        ])
        .output()
        .unwrap();
    assert_eq!(
        merged.status.code(),
        Some(0),
        "{}",
        common::stderr_of(&merged)
    );
    let merged_csv = std::fs::read_to_string(root.join("merged/standings.csv")).unwrap();
    assert_eq!(
        merged_csv, csv,
        "the same games (bots seeded), the same standings"
    );
    // The page calls each game by the same number: #1 to #12.
    let page = std::fs::read_to_string(root.join("merged.html")).unwrap();
    for number in 1..=12 {
        assert!(page.contains(&format!("id=\"g{number}\"")), "game {number}");
    }
    assert!(!page.contains("id=\"g0\"") && !page.contains("id=\"g13\""));

    // A shard given twice counts its games once.
    let merge = |parts: &[&str], out: &str| {
        clings(root)
            .args(["tournament", "--merge"])
            .args(parts)
            .args(["--out", out])
            .output()
            .unwrap()
    };
    let twice = merge(
        &[
            "one/tournament.json",
            "one/tournament.json",
            "two/tournament.json",
        ],
        "twice",
    );
    assert_eq!(
        twice.status.code(),
        Some(0),
        "{}",
        common::stderr_of(&twice)
    );
    assert_eq!(
        std::fs::read_to_string(root.join("twice/standings.csv")).unwrap(),
        csv
    );
    // The same game with another record is not the same run's: refused, saying which.
    let mut altered: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("one/tournament.json")).unwrap()).unwrap();
    let number = altered["games"][0]["number"].clone();
    // Still a game the tournament could have played, but not the one it did.
    let reason = format!(
        "{} (altered)",
        altered["games"][0]["reason"].as_str().unwrap()
    );
    altered["games"][0]["reason"] = reason.into();
    std::fs::create_dir_all(root.join("altered")).unwrap();
    std::fs::write(
        root.join("altered/tournament.json"),
        serde_json::to_vec(&altered).unwrap(),
    )
    .unwrap();
    let refused = merge(
        &[
            "one/tournament.json",
            "altered/tournament.json",
            "two/tournament.json",
        ],
        "refused",
    );
    common::assert_error(
        &refused,
        &format!("the game numbered {number} in tournament.json is in two of the shards"),
    );
    assert!(!root.join("refused").exists());
}

/// A player's folder that is a symbolic link (to the course's solutions), or whose
/// `exercises/ai.c` is one, is refused: it forfeits every game, named on stderr with why,
/// in the standings with its reason; the tournament exits 1.
#[test]
fn a_player_folder_or_file_that_is_a_symbolic_link_is_refused_and_forfeits() {
    use std::os::unix::fs::symlink;
    let course = copy_course(&repo());
    let root = course.path();
    let class = root.join("class");
    std::fs::create_dir_all(class.join("ana/exercises")).unwrap();
    std::fs::copy(
        repo().join("solutions/ai.c"),
        class.join("ana/exercises/ai.c"),
    )
    .unwrap();
    symlink("../solutions", class.join("eve")).unwrap();
    std::fs::create_dir_all(class.join("mallory/exercises")).unwrap();
    symlink(
        "../../../solutions/ai.c",
        class.join("mallory/exercises/ai.c"),
    )
    .unwrap();

    let output = clings(root)
        .args(["tournament", "class", "--out", "out"])
        .output()
        .unwrap();
    let stderr = common::stderr_of(&output);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    for (name, path) in [("eve", "eve"), ("mallory", "exercises/ai.c")] {
        assert!(
            stderr.contains(&format!(
                "{name} forfeits every game: refused: {path} leads to "
            )),
            "{stderr}"
        );
    }
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("out/tournament.json")).unwrap()).unwrap();
    let players = document["players"].as_array().unwrap();
    assert_eq!(players.len(), 3, "{document}");
    for player in &players[1..] {
        assert_eq!(player["refused"], true, "{player}");
        assert!(
            player["forfeits"]
                .as_str()
                .unwrap()
                .contains("through a symbolic link"),
            "{player}"
        );
    }
    let games = document["games"].as_array().unwrap();
    assert_eq!(
        games
            .iter()
            .filter(|game| game["reason"] == "eve was refused")
            .count(),
        2,
        "{document}"
    );
    // ana wins her four by forfeit; the refused players have their reason.
    let cells = common::csv_cells(&root.join("out/standings.csv"));
    assert_eq!(cells[0][10], "forfeits");
    assert_eq!(
        &cells[1][1..7],
        ["ana", "4", "4", "0", "0", "4"],
        "{cells:?}"
    );
    for row in &cells[2..] {
        assert_eq!(&row[3], "0", "{row:?}");
        assert!(row[10].starts_with("refused: "), "{row:?}");
    }
}

/// Folder names a spreadsheet would run are text in standings.csv, as played and as
/// merged from shards, and exactly themselves in tournament.json. (The players do not
/// compile: their games are forfeits, no game to play.)
#[test]
fn player_names_that_are_formulas_are_text_in_the_standings() {
    let course = copy_course(&repo());
    let root = course.path();
    for name in common::FORMULA_NAMES {
        let dir = root.join("class").join(name).join("exercises");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(
            repo().join("tests/programs/compile_error.c"),
            dir.join("ai.c"),
        )
        .unwrap();
    }
    let run = |args: &[&str]| {
        let output = clings(root).arg("tournament").args(args).output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            common::stderr_of(&output)
        );
    };
    run(&["class", "--shard", "1/2", "--out", "one"]);
    run(&["class", "--shard", "2/2", "--out", "two"]);
    run(&[
        "--merge",
        "one/tournament.json",
        "two/tournament.json",
        "--out",
        "merged",
    ]);
    let mut names = common::FORMULA_NAMES.map(String::from);
    names.sort();
    for out in ["one", "merged"] {
        let cells = common::csv_cells(&root.join(out).join("standings.csv"));
        common::assert_no_formula(&cells);
        let mut shown: Vec<&str> = cells[1..].iter().map(|row| row[1].as_str()).collect();
        shown.sort();
        let mut expected: Vec<String> = names
            .iter()
            .map(|name| common::name_as_text(name))
            .collect();
        expected.sort();
        assert_eq!(shown, expected, "{out}");
        let players = common::tournament_players(&root.join(out).join("tournament.json"));
        assert_eq!(players, names, "{out}");
    }
}

/// Issue 26, docs/battles-and-tournaments.md: a player's time to move is its own.
/// The starver's fifteen spinning children (each in a session of its own) are stopped
/// while the thinker thinks (200 ms of CPU a move, under a 1 s clock), so the thinker makes
/// its five in time; with them spinning, it got an eighth of a core and lost on time. As
/// root and as an unprivileged user. A player that is itself slow still loses on time (the
/// `silent` player above).
#[test]
fn a_player_whose_children_spin_does_not_make_its_opponent_lose_on_time() {
    let course = copy_course(&repo());
    for unprivileged in [false, true] {
        let mut command = match unprivileged {
            false => common::clings_process(course.path()),
            true => common::clings_unprivileged(course.path()).expect("setpriv"),
        };
        let output = command
            .args(["--require-isolation", "battle"])
            .args([program("thinker"), program("starver")])
            .args(["--games", "1"])
            .output()
            .unwrap();
        let said = stdout_of(&output);
        let context = format!(
            "unprivileged={unprivileged}: {said}{}",
            common::stderr_of(&output)
        );
        assert_eq!(output.status.code(), Some(0), "{context}");
        assert!(!said.contains("no move within"), "{context}");
        assert!(said.contains("thinker.c (X) won in 9 moves"), "{context}");
    }
}

/// What a forger changes in a game of a shard's tournament.json.
type Forgery = fn(&mut serde_json::Value);

/// A shard's tournament.json is a file anyone can edit: `--merge` replays every game of
/// every shard against the tournament's schedule, the players every shard agrees on and
/// the rules, and refuses a forged one, naming the shard and the game, or the shards and
/// the player they disagree on; the honest shards merge. A shard left out, or a game
/// dropped, is named with the shard that should hold it, and the merge exits 1.
#[test]
fn forged_shards_are_refused_naming_the_shard_and_the_game() {
    let course = copy_course(&repo());
    let root = course.path();
    std::fs::create_dir_all(root.join("class")).unwrap();
    for shard in ["1/2", "2/2"] {
        let out = format!("shard-{}", &shard[..1]);
        let output = clings(root)
            .args(["tournament", "class", "--bot", "random"])
            .args(["--bot", "priorities", "--bot", "strong"])
            .args(["--shard", shard, "--out", &out])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    }
    let honest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("shard-1/tournament.json")).unwrap())
            .unwrap();
    let forgeries: [(&str, Forgery); 4] = [
        ("its winner is not the one who made five", |game| {
            let flipped = match game["winner"].as_str() {
                Some("X") => "O",
                _ => "X",
            };
            game["winner"] = flipped.into();
        }),
        ("its number is not in the tournament's schedule", |game| {
            game["number"] = 99.into();
        }),
        ("is not a move of the game there", |game| {
            game["moves"][0]["row"] = 200.into();
        }),
        ("its players or colours are not the schedule's", |game| {
            game["x"] = "mallory".into();
        }),
    ];
    for (why, forge) in forgeries {
        let mut forged = honest.clone();
        let number = forged["games"][0]["number"].clone();
        forge(&mut forged["games"][0]);
        std::fs::create_dir_all(root.join("forged")).unwrap();
        std::fs::write(
            root.join("forged/tournament.json"),
            serde_json::to_vec(&forged).unwrap(),
        )
        .unwrap();
        let output = clings(root)
            .args(["tournament", "--merge", "shard-2/tournament.json"])
            .args(["forged/tournament.json", "--out", "merged"])
            .output()
            .unwrap();
        let shown = match why.contains("schedule") && why.contains("number") {
            true => "forged/tournament.json: game 99".to_string(),
            false => format!("forged/tournament.json: game {number}"),
        };
        common::assert_error(&output, &shown);
        common::assert_error(&output, why);
        assert!(!root.join("merged").exists(), "{why}");
    }
    let merge = |parts: &[&str]| {
        clings(root)
            .args(["tournament", "--merge"])
            .args(parts)
            .args(["--out", "merged"])
            .output()
            .unwrap()
    };
    // Shard 1 says a player forfeits (it did not compile, says the forgery) and makes each
    // of its games an empty loss: a shard alone holds together, but not with shard 2.
    let mut forged = honest.clone();
    let player = forged["players"][0]["name"].as_str().unwrap().to_string();
    forged["players"][0]["forfeits"] = "does not compile".into();
    for game in forged["games"].as_array_mut().unwrap() {
        let side = match (game["x"] == player.as_str(), game["o"] == player.as_str()) {
            (true, _) => "O",
            (_, true) => "X",
            _ => continue,
        };
        game["winner"] = side.into();
        game["reason"] = format!("{player} does not compile").into();
        game["moves"] = serde_json::json!([]);
        game["five"] = serde_json::json!([]);
    }
    std::fs::write(
        root.join("forged/tournament.json"),
        serde_json::to_vec(&forged).unwrap(),
    )
    .unwrap();
    for parts in [
        ["shard-2/tournament.json", "forged/tournament.json"],
        ["forged/tournament.json", "shard-2/tournament.json"],
    ] {
        let output = merge(&parts);
        common::assert_error(&output, &format!("player \"{player}\" is {{"));
        common::assert_error(
            &output,
            "\"forfeits\":\"does not compile\"} in forged/tournament.json",
        );
        common::assert_error(&output, "in shard-2/tournament.json");
        assert!(!root.join("merged").exists());
    }
    // A shard left out, or a game dropped: the games there are merge, the missing ones are
    // named with the shard that should hold them, and the exit status is 1.
    let output = merge(&["shard-1/tournament.json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains(
            "incomplete: 3 of the 6 scheduled games are missing; shard 2/2 should hold games \
             2, 4 and 6 (its tournament.json was not given)"
        ),
        "{}",
        stderr_of(&output)
    );
    let merged = std::fs::read_to_string(root.join("merged/standings.csv")).unwrap();
    let games: u32 = merged
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(2).unwrap().parse::<u32>().unwrap())
        .sum();
    assert_eq!(
        games,
        2 * 3,
        "the three games of shard 1, each counted for two players"
    );
    std::fs::remove_dir_all(root.join("merged")).unwrap();
    let mut dropped: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("shard-2/tournament.json")).unwrap())
            .unwrap();
    dropped["games"].as_array_mut().unwrap().remove(1);
    std::fs::write(
        root.join("forged/tournament.json"),
        serde_json::to_vec(&dropped).unwrap(),
    )
    .unwrap();
    let output = merge(&["shard-1/tournament.json", "forged/tournament.json"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains(
            "incomplete: 1 of the 6 scheduled games is missing; shard 2/2 should hold game 4 \
             (its tournament.json lacks 1 of its 3)"
        ),
        "{}",
        stderr_of(&output)
    );
    std::fs::remove_dir_all(root.join("merged")).unwrap();
    let output = merge(&["shard-1/tournament.json", "shard-2/tournament.json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(!stderr_of(&output).contains("incomplete"));
}

//! Issue 30: a game's result is a function of the two programs, the colours and the seed,
//! whatever the machine's load, the number of jobs and the sharding. Players that write
//! out of turn, exit at once, flood or sleep past their clock race with their opponents
//! when the referee judges by which line arrives first; the referee reads each player's
//! lines in the game's order (referees/README.md), so three runs of one tournament agree.

use crate::common;

use std::path::Path;

use common::{clings, copy_course, repo, stderr_of};

/// The class: four hostile players of `tests/programs/battle/` and the lesson's player;
/// two course bots and the tests' Gomocup engine join them.
const CLASS: [(&str, &str); 5] = [
    ("ahead", "tests/programs/battle/ahead.c"),
    ("floods", "tests/programs/battle/floods.c"),
    ("lesson", "solutions/ai.c"),
    ("quits", "tests/programs/battle/quits.c"),
    ("sleeps", "tests/programs/battle/sleeps.c"),
];

fn tournament(root: &Path, extra: &[&str]) {
    let output = clings(root)
        .args(["tournament", "class", "--bot", "random", "--bot", "strong"])
        .arg("--engine")
        .arg(repo().join("tests/programs/gomocup/engine.c"))
        .args(["--seed", "3"])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
}

/// The games of `out/tournament.json`, in their order, each as recorded (players, winner,
/// reason, moves, five, seed).
fn games(root: &Path, out: &str) -> Vec<serde_json::Value> {
    let document: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join(out).join("tournament.json")).unwrap())
            .unwrap();
    let mut games = document["games"].as_array().unwrap().clone();
    games.sort_by_key(|game| game["number"].as_u64());
    games
}

#[test]
fn a_tournament_with_hostile_players_gives_the_same_games_with_one_job_two_jobs_and_shards() {
    let course = copy_course(&repo());
    let root = course.path();
    for (student, source) in CLASS {
        let dir = root.join("class").join(student).join("exercises");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(repo().join(source), dir.join("ai.c")).unwrap();
    }
    tournament(root, &["--jobs", "1", "--out", "one-job"]);
    tournament(root, &["--jobs", "2", "--out", "two-jobs"]);
    tournament(root, &["--shard", "1/2", "--out", "shard-1"]);
    tournament(root, &["--shard", "2/2", "--out", "shard-2"]);
    let merged = clings(root)
        .args(["tournament", "--merge"])
        .args(["shard-1/tournament.json", "shard-2/tournament.json"])
        .args(["--out", "merged"])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(0), "{}", stderr_of(&merged));

    let reference = games(root, "one-job");
    assert_eq!(reference.len(), 56, "8 players, each pair twice");
    for out in ["two-jobs", "merged"] {
        for (expected, got) in reference.iter().zip(games(root, out)) {
            assert_eq!(
                &got, expected,
                "game {} differs between one-job and {out}",
                expected["number"]
            );
        }
        assert_eq!(
            std::fs::read_to_string(root.join(out).join("standings.csv")).unwrap(),
            std::fs::read_to_string(root.join("one-job/standings.csv")).unwrap(),
            "{out}"
        );
    }

    // Each hostile player's fault is the one its program commits, said as such.
    let reasons: Vec<String> = reference
        .iter()
        .map(|game| format!("{} v {}: {}", game["x"], game["o"], game["reason"]))
        .collect();
    let holds = |player: &str, words: &str| {
        reasons
            .iter()
            .any(|line| line.contains(player) && line.contains(words))
    };
    assert!(
        holds("quits", "ended before the game did, at move 1"),
        "{reasons:#?}"
    );
    assert!(
        holds("quits", "ended before the game did, at move 2"),
        "{reasons:#?}"
    );
    assert!(holds("sleeps", "no move within 1000 ms"), "{reasons:#?}");
    assert!(holds("floods", "occupied"), "{reasons:#?}");
    assert!(
        !reasons.iter().any(|line| line.contains("out of turn")),
        "a line is judged when its turn comes: {reasons:#?}"
    );
}

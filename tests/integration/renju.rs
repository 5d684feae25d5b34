//! The renju exercise's verdicts, checked against an independent reading of the rules: the
//! forbidden moves written a second time, in Rust, from RIF's definitions (a four is four
//! stones one more makes exactly five; a straight four is an unbroken four two cells make
//! five; a three is three stones one more makes a straight four, that stone itself a move
//! black may play), by brute force over whole lines. Every case's expected output
//! (produced by solutions/renju.c) must be what this reading prints, and so must the
//! solution's on random games dense enough to reach every rule, the recursive one
//! included; and white plays, in some case, a cell black may not.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{clings, copy_course, repo, scripted_player, shipped_cases, stderr_of, stdout_of};

/// Every case of fixtures/renju: its name, input and expected output.
fn renju_cases() -> Vec<(String, String, String)> {
    let dir = repo().join("fixtures/renju");
    let mut cases: Vec<(String, String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_stem()?.to_string_lossy().into_owned();
            (path.extension()? == "in").then(|| {
                let read = |ext: &str| std::fs::read_to_string(dir.join(format!("{name}.{ext}")));
                (name.clone(), read("in").unwrap(), read("out").unwrap())
            })
        })
        .collect();
    cases.sort();
    cases
}

#[test]
fn every_renju_case_agrees_with_the_independent_reading() {
    let cases = renju_cases();
    assert_eq!(cases.len(), shipped_cases("renju"));
    for (name, input, expected) in &cases {
        assert_eq!(
            &rules::game(input),
            expected,
            "{name}: the case's expected output is not what the rules say"
        );
    }
    // The cases hold every rule, and both kinds of allowed look-alike: a three that its
    // own line closes, and one closed by the forbidden cells of its straight four.
    let all: String = cases.iter().map(|(_, _, out)| out.as_str()).collect();
    for message in [
        "Forbidden move: overline! Try again.",
        "Forbidden move: double four! Try again.",
        "Forbidden move: double three! Try again.",
        "Player X wins!",
        "Player O wins!",
        "Draw!",
        "Invalid move! Try again.",
    ] {
        assert!(all.contains(message), "no case says {message:?}");
    }
    let recursive = rules::FORBIDDEN_STRAIGHT_FOURS.with(|n| n.get());
    assert!(
        recursive > 0,
        "no case has a straight four on a forbidden cell"
    );
    // White plays a cell black may not: a judge that asks forbidden() of O's moves too
    // refuses it.
    let white_on_a_forbidden_cell = cases.iter().any(|(_, input, _)| {
        let mut board = rules::Board::new();
        let mut black = true;
        rules::play(input).into_iter().any(|event| match event {
            rules::Event::Played(p) => {
                let forbidden_for_black = board.forbidden(p) != rules::Verdict::Allowed;
                let stone = if black {
                    rules::Cell::Black
                } else {
                    rules::Cell::White
                };
                board.set(p, stone);
                black = !black;
                stone == rules::Cell::White && forbidden_for_black
            }
            _ => false,
        })
    });
    assert!(
        white_on_a_forbidden_cell,
        "no case has O play a cell forbidden for X"
    );
}

/// A generator of our own, so that the games are the same on every run.
struct Random(u64);

impl Random {
    fn below(&mut self, n: u32) -> i32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as i32
    }
}

/// A game's input: black plays in a 7x7 square (anywhere, edges and corners too), white as
/// often there as anywhere on the board, so that black's lines grow long and meet, and
/// many of its moves are forbidden, or nearly.
fn random_game(random: &mut Random) -> String {
    let (top, left) = (random.below(9), random.below(9));
    let moves = 40 + random.below(140);
    let mut input = String::new();
    for k in 0..moves {
        let (r, c) = if k % 2 == 0 || random.below(2) == 0 {
            (top + random.below(7), left + random.below(7))
        } else {
            (random.below(15), random.below(15))
        };
        input.push_str(&format!("{r} {c}\n"));
    }
    input
}

fn run(program: &Path, input: &str) -> String {
    let mut child = Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{input}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_reference_solution_agrees_with_the_independent_reading_on_random_games() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("renju");
    let built = Command::new("gcc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(&program)
        .arg(repo().join("solutions/renju.c"))
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr_of(&built));

    let mut random = Random(31);
    let mut seen = String::new();
    for game in 0..300 {
        let input = random_game(&mut random);
        let said = run(&program, &input);
        assert_eq!(
            said,
            rules::game(&input),
            "game {game}: the solution and the rules disagree on\n{input}"
        );
        seen.push_str(&said);
    }
    // The games reach every rule, the recursive one too.
    for rule in ["overline", "double four", "double three"] {
        let refused = seen.matches(&format!("Forbidden move: {rule}!")).count();
        assert!(refused >= 5, "{rule}: {refused} moves refused");
    }
    let recursive = rules::FORBIDDEN_STRAIGHT_FOURS.with(|n| n.get());
    assert!(
        recursive > 0,
        "no game had a straight four on a forbidden cell"
    );
}

/// `clings battle --rule renju` between two players that replay a renju case's legal
/// moves: the referee refuses black's first forbidden move, which loses, as the rules
/// say; it lets every allowed look-alike through, and the game ends as the case does.
#[test]
fn battle_with_rule_renju_judges_every_case_as_the_rules_do() {
    use rules::Event;
    let course = copy_course(&repo());
    for (name, input, _) in renju_cases() {
        let mut scripts: [Vec<rules::Point>; 2] = [Vec::new(), Vec::new()];
        let (mut turn, mut played) = (0, 0);
        let mut expected = String::new();
        // A battle has no second try: a line the exercise calls invalid is left out, and
        // the first forbidden move ends the game.
        for event in rules::play(&input) {
            match event {
                Event::Invalid => {}
                Event::Played(cell) => {
                    scripts[turn].push(cell);
                    turn = 1 - turn;
                    played += 1;
                }
                Event::Forbidden((r, c), verdict) => {
                    scripts[0].push((r, c));
                    expected = format!(
                        "(O) won in {played} moves: X: illegal move {r} {c} (forbidden: {}) on move {}",
                        verdict.name(),
                        played + 1
                    );
                    break;
                }
                Event::Won(stone) => {
                    expected = format!("({stone}) won in {played} moves: {stone} made five")
                }
                Event::Draw => expected = format!("a draw after {played} moves: "),
            }
        }
        for (file, script) in [("x.c", &scripts[0]), ("o.c", &scripts[1])] {
            std::fs::write(course.path().join(file), scripted_player(script)).unwrap();
        }
        let output = clings(course.path())
            .args(["battle", "x.c", "o.c", "--rule", "renju", "--delay", "0"])
            .output()
            .unwrap();
        let said = stdout_of(&output);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{name}: {said}{}",
            stderr_of(&output)
        );
        assert!(said.contains(", renju rules"), "{name}: {said}");
        assert!(
            said.contains(&expected),
            "{name}: expected {expected:?}\n{said}"
        );
    }
}

/// The referee's own strategies play black under `rule renju` without a forbidden move:
/// the referee is run as the ai exercise's cases run it, against a player (this test)
/// that blocks black's longest lines, so that games last and black's stones crowd; each
/// of black's moves in the referee's moves.txt is allowed by the rules' reading, though
/// forbidden cells were there to play.
#[test]
fn under_rule_renju_the_referees_black_never_plays_a_forbidden_move() {
    use std::io::{BufRead, BufReader, Write};
    let dir = tempfile::tempdir().unwrap();
    let referee = dir.path().join("referee");
    let built = Command::new("gcc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(&referee)
        .arg(repo().join("referees/gomoku.c"))
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr_of(&built));

    let mut random = Random(7);
    let (mut black_moves, mut forbidden_cells) = (0, 0);
    for (opponent, seed) in [
        ("priorities", 1),
        ("priorities", 2),
        ("strong", 1),
        ("strong", 2),
    ]
    .into_iter()
    .chain((1..=4).map(|seed| ("random", seed)))
    {
        let case = dir.path().join("case.in");
        let feedback = dir.path().join(format!("{opponent}-{seed}"));
        std::fs::create_dir(&feedback).unwrap();
        std::fs::write(
            &case,
            format!("player O\nopponent {opponent} {seed}\nrule renju\n"),
        )
        .unwrap();
        let mut child = Command::new(&referee)
            .arg(&case)
            .arg("/dev/null")
            .arg(&feedback)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut to_referee = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        assert_eq!(lines.next().unwrap().unwrap(), "O");
        let mut board = rules::Board::new();
        for line in lines {
            let line = line.unwrap();
            let mut numbers = line.split(' ').map(|n| n.parse::<i32>().unwrap());
            let black = (numbers.next().unwrap(), numbers.next().unwrap());
            board.set(black, rules::Cell::Black);
            let Some(white) = board.blocking_move(&mut |n| random.below(n)) else {
                break;
            };
            board.set(white, rules::Cell::White);
            writeln!(to_referee, "{} {}", white.0, white.1).unwrap();
        }
        drop(to_referee);
        child.wait().unwrap();

        let moves = std::fs::read_to_string(feedback.join("moves.txt")).unwrap();
        let mut board = rules::Board::new();
        for line in moves.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            let cell = (words[1].parse().unwrap(), words[2].parse().unwrap());
            if words[0] == "X" {
                assert_eq!(
                    board.forbidden(cell),
                    rules::Verdict::Allowed,
                    "{opponent} {seed}: black played a forbidden move, {line}, in\n{moves}"
                );
                black_moves += 1;
                forbidden_cells += board.forbidden_cells();
                board.set(cell, rules::Cell::Black);
            } else {
                board.set(cell, rules::Cell::White);
            }
        }
    }
    assert!(black_moves > 100, "{black_moves} moves of black's");
    assert!(
        forbidden_cells > 0,
        "black never had a forbidden cell to avoid"
    );
}

/// The ai exercise's shipped course with one case, `case` (a referee case file), and
/// `program` as the student's ai.c: the case's verdict and message.
fn ai_case(case: &str, program: &str) -> (String, String) {
    let course = copy_course(&repo());
    let fixtures = course.path().join("fixtures/ai");
    std::fs::remove_dir_all(&fixtures).unwrap();
    std::fs::create_dir(&fixtures).unwrap();
    std::fs::write(fixtures.join("01_renju.in"), case).unwrap();
    std::fs::write(fixtures.join("01_renju.out"), "").unwrap();
    std::fs::write(
        fixtures.join("01_renju.toml"),
        "time_limit_ms = 60000\ncpu_time_ms = 60000\n",
    )
    .unwrap();
    std::fs::write(course.path().join("exercises/ai.c"), program).unwrap();
    let (document, _) = common::json_results(course.path(), &["ai"]);
    let case = &document["exercises"][0]["cases"][0];
    let field = |key: &str| case[key].as_str().unwrap_or_default().to_string();
    (field("verdict"), field("message"))
}

/// `rule renju` in a case of the ai exercise: the program, as black, loses on its forbidden
/// move, told which rule forbids it; the referee's black skips a forbidden cell of its
/// script, as it skips a taken one.
#[test]
fn rule_renju_in_a_case_refuses_the_programs_forbidden_move_and_its_own() {
    let far = "move 0 0\nmove 0 14\nmove 14 0\nmove 14 14\nafter random 1\n";
    let (verdict, message) = ai_case(
        &format!("player X\nopponent script\n{far}rule renju\n"),
        &scripted_player(&[(7, 5), (7, 6), (5, 7), (6, 7), (7, 7), (7, 4)]),
    );
    assert_eq!(verdict, "wrong_output", "{message}");
    assert!(
        message.ends_with(": illegal move 7 7 (forbidden: double three) on move 9"),
        "{message}"
    );

    // Black's script: two open threes, then their meeting cell 7 7, which it must skip, then
    // five on row 7 with 7 7 empty. White stays far, and plays garbage if 7 7 comes.
    let script: String = [
        (7, 5),
        (7, 6),
        (5, 7),
        (6, 7),
        (7, 7),
        (7, 4),
        (7, 3),
        (7, 2),
    ]
    .iter()
    .map(|(r, c)| format!("move {r} {c}\n"))
    .collect();
    let watcher = scripted_player(&[(0, 0), (0, 14), (14, 0), (14, 14), (0, 2), (0, 4)])
        .replace(
            "        } else if (scanf(\"%d %d\", &r, &c) != 2) {\n            return 0;\n        }",
            "        } else if (scanf(\"%d %d\", &r, &c) != 2) {\n            return 0;\n        } else if (r == 7 && c == 7) {\n            printf(\"black played 7 7\\n\");\n            fflush(stdout);\n        }",
        );
    assert!(watcher.contains("black played"), "{watcher}");
    let case = format!("player O\nopponent script\n{script}rule renju\n");
    let (verdict, message) = ai_case(&case, &watcher);
    assert_eq!(verdict, "passed", "{message}");
    // Without renju's rules 7 7 is a move like any other.
    let (verdict, message) = ai_case(&case.replace("rule renju\n", ""), &watcher);
    assert_eq!(verdict, "wrong_output", "{message}");
    assert!(
        message.contains("garbage line 'black played 7 7'"),
        "{message}"
    );
}

/// `clings tournament --rule renju` says its rules in tournament.json (a free-style one's
/// file is as before), and its shards merge only with shards of the same rules.
#[test]
fn a_tournament_under_renju_records_its_rules_and_merges_only_with_its_own() {
    let course = copy_course(&repo());
    std::fs::create_dir(course.path().join("class")).unwrap();
    let tournament = |out: &str, rules: &str| {
        let output = clings(course.path())
            .args([
                "tournament",
                "class",
                "--bot",
                "random",
                "--bot",
                "priorities",
            ])
            .args(["--rule", rules, "--out", out])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        let json = std::fs::read(course.path().join(out).join("tournament.json")).unwrap();
        serde_json::from_slice::<serde_json::Value>(&json).unwrap()
    };
    let renju = tournament("renju", "renju");
    assert_eq!(renju["rules"], "renju", "{renju:#}");
    assert_eq!(renju["games"].as_array().unwrap().len(), 2);
    let free = tournament("free", "freestyle");
    assert!(free.get("rules").is_none(), "{free:#}");

    let output = clings(course.path())
        .args([
            "tournament",
            "--merge",
            "renju/tournament.json",
            "free/tournament.json",
        ])
        .args(["--out", "merged"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("rules"),
        "{}",
        stderr_of(&output)
    );
    let output = clings(course.path())
        .args([
            "tournament",
            "--merge",
            "renju/tournament.json",
            "renju/tournament.json",
        ])
        .args(["--out", "merged"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let merged = std::fs::read(course.path().join("merged/tournament.json")).unwrap();
    let merged: serde_json::Value = serde_json::from_slice(&merged).unwrap();
    assert_eq!(merged["rules"], "renju");

    // Rules the referee does not know are a usage error.
    let output = clings(course.path())
        .args(["battle", "random", "random", "--rule", "gomoku"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).contains("freestyle or renju"),
        "{}",
        stderr_of(&output)
    );
}

/// The reading itself, on the shapes the rules' texts draw: X to move on `*`.
#[test]
fn the_independent_reading_judges_the_textbook_shapes() {
    use rules::{Board, Verdict};
    let judged = |rows: &[&str]| {
        let star = rows
            .iter()
            .enumerate()
            .find_map(|(r, row)| row.find('*').map(|c| (r as i32, c as i32)))
            .expect("a * in the drawing");
        Board::drawn(rows).forbidden(star)
    };
    for (rows, verdict) in [
        // two open threes
        (
            &["......", "...X..", "...X..", ".XX*..", "......"][..],
            Verdict::DoubleThree,
        ),
        // a split three and an open three
        (
            &["......", "....X.", "....X.", ".X.X*.", "......"][..],
            Verdict::DoubleThree,
        ),
        // O closes one of them: a four can come of it, no straight four
        (
            &["......", "...X..", "...X..", "OXX*..", "......"][..],
            Verdict::Allowed,
        ),
        // so does the edge
        (
            &["....", "..X.", "..X.", "XX*.", "...."][..],
            Verdict::Allowed,
        ),
        // X.X.X is no three
        (
            &[".....", "....X", "....X", "X.X.*", "....."][..],
            Verdict::Allowed,
        ),
        // two fours, in two lines and in one
        (
            &["....O..", "....X..", "....X..", "....X..", "OXXX*.."][..],
            Verdict::DoubleFour,
        ),
        (&["X.XX*.X"][..], Verdict::DoubleFour),
        // a four and a three
        (
            &["......", "....X.", "....X.", "OXXX*.", "......"][..],
            Verdict::Allowed,
        ),
        // an open four is one four
        (&[".XXX*."][..], Verdict::Allowed),
        // six
        (&["XXX*XX."][..], Verdict::Overline),
        // exactly five, with two fours beside it
        (
            &["O...O.", ".X..X.", "..X.X.", "...XX.", "XXXX*.", "......"][..],
            Verdict::Allowed,
        ),
        // a line whose only cell makes six is no four: one four only
        (
            &[
                "....O..", "....X..", "....X..", "....X..", "OXXX*.X", ".......",
            ][..],
            Verdict::Allowed,
        ),
        // row 3 looks like a three, but its straight-four cells, 3 1 and 3 5, each make six
        // in their column: with column 4's three, one three only
        (
            &[
                ".X...X.", ".X..XX.", ".X..XX.", "..XX*..", ".X...X.", ".X...X.", ".......",
            ][..],
            Verdict::Allowed,
        ),
    ] {
        assert_eq!(judged(rows), verdict, "{rows:#?}");
    }
}

/// Renju's forbidden moves for black, read a second way: straight from the rules' words
/// (RIF's definitions), by brute force over whole lines, sharing no code and no shortcut
/// with the C programs it checks.
mod rules {
    use std::cell::Cell as Counter;

    thread_local! {
        /// How often, on this thread, a straight four was refused as a three's because
        /// its cell is forbidden for black: what makes the rule recursive, counted so that
        /// a test can say its games reached it.
        pub static FORBIDDEN_STRAIGHT_FOURS: Counter<usize> = const { Counter::new(0) };
    }

    pub const SIZE: i32 = 15;
    const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Cell {
        Empty,
        Black,
        White,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Verdict {
        Allowed,
        Overline,
        DoubleFour,
        DoubleThree,
    }

    impl Verdict {
        pub fn name(self) -> &'static str {
            match self {
                Verdict::Allowed => "",
                Verdict::Overline => "overline",
                Verdict::DoubleFour => "double four",
                Verdict::DoubleThree => "double three",
            }
        }
    }

    #[derive(Clone)]
    pub struct Board {
        cells: [[Cell; SIZE as usize]; SIZE as usize],
    }

    pub type Point = (i32, i32);

    impl Board {
        pub fn new() -> Board {
            Board {
                cells: [[Cell::Empty; SIZE as usize]; SIZE as usize],
            }
        }

        /// A board drawn as rows of `X`, `O` and `.`, from row 0 (missing rows and
        /// columns are empty).
        pub fn drawn(rows: &[&str]) -> Board {
            let mut board = Board::new();
            for (r, row) in rows.iter().enumerate() {
                for (c, letter) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                    let cell = match letter {
                        'X' => Cell::Black,
                        'O' => Cell::White,
                        _ => Cell::Empty,
                    };
                    board.set((r as i32, c as i32), cell);
                }
            }
            board
        }

        pub fn get(&self, (r, c): Point) -> Cell {
            self.cells[r as usize][c as usize]
        }

        pub fn set(&mut self, (r, c): Point, cell: Cell) {
            self.cells[r as usize][c as usize] = cell;
        }

        /// How many empty cells black may not play now.
        pub fn forbidden_cells(&self) -> usize {
            (0..SIZE)
                .flat_map(|r| (0..SIZE).map(move |c| (r, c)))
                .filter(|&p| self.get(p) == Cell::Empty && self.forbidden(p) != Verdict::Allowed)
                .count()
        }

        /// White's move that blocks black's longest line: the empty cell where black's
        /// stone would stand in the longest row, ties drawn with `random` (a number below
        /// its argument); none on a full board.
        pub fn blocking_move(&self, random: &mut dyn FnMut(u32) -> i32) -> Option<Point> {
            let mut best = None;
            let mut best_value = -1;
            for p in (0..SIZE).flat_map(|r| (0..SIZE).map(move |c| (r, c))) {
                if self.get(p) != Cell::Empty {
                    continue;
                }
                let mut after = self.clone();
                after.set(p, Cell::Black);
                let longest = DIRECTIONS
                    .iter()
                    .map(|&d| after.row(p, d, Cell::Black).len())
                    .max()
                    .unwrap_or(0);
                let value = longest as i32 * 16 + random(16);
                if value > best_value {
                    best_value = value;
                    best = Some(p);
                }
            }
            best
        }

        pub fn full(&self) -> bool {
            self.cells.iter().flatten().all(|cell| *cell != Cell::Empty)
        }

        /// The whole line of the board through `p` along `d`, edge to edge, in order.
        fn line(&self, p: Point, (dr, dc): (i32, i32)) -> Vec<Point> {
            let on = |(r, c): Point| (0..SIZE).contains(&r) && (0..SIZE).contains(&c);
            let mut start = p;
            while on((start.0 - dr, start.1 - dc)) {
                start = (start.0 - dr, start.1 - dc);
            }
            let mut line = Vec::new();
            let mut q = start;
            while on(q) {
                line.push(q);
                q = (q.0 + dr, q.1 + dc);
            }
            line
        }

        /// The stones of `who` in an unbroken row through `p` along `d` (`p` must hold one).
        fn row(&self, p: Point, d: (i32, i32), who: Cell) -> Vec<Point> {
            let line = self.line(p, d);
            let at = line.iter().position(|q| *q == p).expect("on its line");
            let mut from = at;
            while from > 0 && self.get(line[from - 1]) == who {
                from -= 1;
            }
            let mut to = at;
            while to + 1 < line.len() && self.get(line[to + 1]) == who {
                to += 1;
            }
            line[from..=to].to_vec()
        }

        /// Whether `who`'s stone on `p` has five or more in a row (five exactly for
        /// black: six are no five).
        pub fn five_at(&self, p: Point, who: Cell) -> bool {
            DIRECTIONS.iter().any(|&d| {
                let n = self.row(p, d, who).len();
                n == 5 || (who == Cell::White && n > 5)
            })
        }

        /// "A row with four stones to which you can add one more stone to attain five in
        /// a row": the fours along `d` that hold `p`, each the set of its four stones.
        fn fours(&self, p: Point, d: (i32, i32)) -> Vec<Vec<Point>> {
            let mut fours: Vec<Vec<Point>> = Vec::new();
            for q in self.line(p, d) {
                if self.get(q) != Cell::Empty {
                    continue;
                }
                let mut after = self.clone();
                after.set(q, Cell::Black);
                let five = after.row(q, d, Cell::Black);
                if five.len() == 5 && five.contains(&p) {
                    let stones: Vec<Point> = five.into_iter().filter(|s| *s != q).collect();
                    if !fours.contains(&stones) {
                        fours.push(stones);
                    }
                }
            }
            fours
        }

        /// "An unbroken row of four stones to which you, in two different ways, can add
        /// one more stone to attain five in a row", holding `p`.
        fn straight_four(&self, p: Point, d: (i32, i32)) -> bool {
            let row = self.row(p, d, Cell::Black);
            if row.len() != 4 {
                return false;
            }
            let ways = self
                .line(p, d)
                .into_iter()
                .filter(|q| self.get(*q) == Cell::Empty)
                .filter(|q| {
                    let mut after = self.clone();
                    after.set(*q, Cell::Black);
                    let five = after.row(*q, d, Cell::Black);
                    five.len() == 5 && row.iter().all(|s| five.contains(s))
                })
                .count();
            ways == 2
        }

        /// "A row with three stones to which you, without at the same time a five in a
        /// row is made, can add one more stone to attain a straight four", that stone a
        /// move black may play: along `d`, holding `p`.
        fn three(&self, p: Point, d: (i32, i32)) -> bool {
            self.line(p, d).into_iter().any(|q| {
                if self.get(q) != Cell::Empty {
                    return false;
                }
                let mut after = self.clone();
                after.set(q, Cell::Black);
                if !(after.straight_four(p, d)
                    && after.row(p, d, Cell::Black).contains(&q)
                    && !after.five_at(q, Cell::Black))
                {
                    return false;
                }
                let allowed = self.forbidden(q) == Verdict::Allowed;
                if !allowed {
                    FORBIDDEN_STRAIGHT_FOURS.with(|n| n.set(n.get() + 1));
                }
                allowed
            })
        }

        /// Black's move on the empty cell `p`, judged: a five is allowed whatever else
        /// it makes; else six or more in a row, then more than one four, then more than
        /// one three, each meeting at `p`, are forbidden.
        pub fn forbidden(&self, p: Point) -> Verdict {
            let mut after = self.clone();
            after.set(p, Cell::Black);
            if after.five_at(p, Cell::Black) {
                return Verdict::Allowed;
            }
            if DIRECTIONS
                .iter()
                .any(|&d| after.row(p, d, Cell::Black).len() >= 6)
            {
                return Verdict::Overline;
            }
            let fours: usize = DIRECTIONS.iter().map(|&d| after.fours(p, d).len()).sum();
            if fours >= 2 {
                return Verdict::DoubleFour;
            }
            let threes = DIRECTIONS.iter().filter(|&&d| after.three(p, d)).count();
            if threes >= 2 {
                return Verdict::DoubleThree;
            }
            Verdict::Allowed
        }
    }

    /// What happens to one line of a game's input, as the renju exercise says.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Event {
        /// Off the board or on a stone: the same player again.
        Invalid,
        /// Black's move refused: black again.
        Forbidden(Point, Verdict),
        /// A legal move, placed.
        Played(Point),
        /// The move just played ended the game: a five (its colour), or a full board.
        Won(char),
        Draw,
    }

    /// A game's input, played by renju's rules: exercise 3's game, black's forbidden moves
    /// refused. The events end with the game, or with the input.
    pub fn play(input: &str) -> Vec<Event> {
        let mut board = Board::new();
        let mut events = Vec::new();
        let mut black = true;
        let mut numbers = input.split_whitespace().map(|word| word.parse::<i32>());
        while let (Some(Ok(r)), Some(Ok(c))) = (numbers.next(), numbers.next()) {
            let (stone, name) = match black {
                true => (Cell::Black, 'X'),
                false => (Cell::White, 'O'),
            };
            let on = (0..SIZE).contains(&r) && (0..SIZE).contains(&c);
            if !on || board.get((r, c)) != Cell::Empty {
                events.push(Event::Invalid);
                continue;
            }
            let verdict = match black {
                true => board.forbidden((r, c)),
                false => Verdict::Allowed,
            };
            if verdict != Verdict::Allowed {
                events.push(Event::Forbidden((r, c), verdict));
                continue;
            }
            board.set((r, c), stone);
            events.push(Event::Played((r, c)));
            if board.five_at((r, c), stone) {
                events.push(Event::Won(name));
                break;
            }
            if board.full() {
                events.push(Event::Draw);
                break;
            }
            black = !black;
        }
        events
    }

    /// What the renju exercise prints for `input` (docs/chapter-3.md): a prompt before
    /// each move asked for, and what came of the move.
    pub fn game(input: &str) -> String {
        let mut out = String::new();
        let mut black = true;
        let events = play(input);
        for event in &events {
            match event {
                Event::Won(_) | Event::Draw => {}
                _ => out.push_str(&format!(
                    "Player {}, enter row col: ",
                    if black { 'X' } else { 'O' }
                )),
            }
            match event {
                Event::Invalid => out.push_str("Invalid move! Try again.\n"),
                Event::Forbidden(_, verdict) => {
                    out.push_str(&format!("Forbidden move: {}! Try again.\n", verdict.name()))
                }
                Event::Played(_) => black = !black,
                Event::Won(name) => out.push_str(&format!("Player {name} wins!\n")),
                Event::Draw => out.push_str("Draw!\n"),
            }
        }
        // The input ended with the game going on: one more prompt, then the program stops.
        if !matches!(events.last(), Some(Event::Won(_) | Event::Draw)) {
            out.push_str(&format!(
                "Player {}, enter row col: ",
                if black { 'X' } else { 'O' }
            ));
        }
        out
    }
}

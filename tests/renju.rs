//! The renju exercise's verdicts, checked against an independent reading of the rules: the
//! forbidden moves written a second time, in Rust, from RIF's definitions (a four is four
//! stones one more makes exactly five; a straight four is an unbroken four two cells make
//! five; a three is three stones one more makes a straight four, that stone itself a move
//! black may play), by brute force over whole lines. Every case's expected output
//! (produced by solutions/renju.c) must be what this reading prints, and so must the
//! solution's on random games dense enough to reach every rule, the recursive one
//! included.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

use common::{repo, shipped_cases, stderr_of};

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

    type Point = (i32, i32);

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

    /// What the renju exercise prints for `input` (docs/chapter-3.md): exercise 3's game
    /// with black's forbidden moves refused.
    pub fn game(input: &str) -> String {
        let mut board = Board::new();
        let mut out = String::new();
        let mut black = true;
        let mut numbers = input.split_whitespace().map(|word| word.parse::<i32>());
        loop {
            let (stone, name) = match black {
                true => (Cell::Black, 'X'),
                false => (Cell::White, 'O'),
            };
            out.push_str(&format!("Player {name}, enter row col: "));
            let (Some(Ok(r)), Some(Ok(c))) = (numbers.next(), numbers.next()) else {
                return out;
            };
            if !(0..SIZE).contains(&r)
                || !(0..SIZE).contains(&c)
                || board.get((r, c)) != Cell::Empty
            {
                out.push_str("Invalid move! Try again.\n");
                continue;
            }
            if black {
                let verdict = board.forbidden((r, c));
                if verdict != Verdict::Allowed {
                    out.push_str(&format!("Forbidden move: {}! Try again.\n", verdict.name()));
                    continue;
                }
            }
            board.set((r, c), stone);
            if board.five_at((r, c), stone) {
                out.push_str(&format!("Player {name} wins!\n"));
                return out;
            }
            if board.full() {
                out.push_str("Draw!\n");
                return out;
            }
            black = !black;
        }
    }
}

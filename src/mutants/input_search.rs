//! Inputs made up for an exercise, in the shape its course gives (see [`InputFormat`]), to
//! look for one on which two programs differ (`clings dev mutants`). They are reproducible
//! (one seed), and varied where the lesson's mistakes hide: for a grid, lines of four to
//! six cells in every direction, at the edges and anywhere, two players' lines together,
//! crowded grids; for moves `row col`, games with lines in every direction, illegal moves
//! (off the grid, on a stone) and early ends; for every format, the cases' own inputs with
//! a small change.

use std::collections::HashSet;

use crate::course::input_format::InputFormat;

/// The four directions of a line on a grid: the others are the same lines read backwards.
const DIRECTIONS: [(i64, i64); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Up to `count` inputs for `format`, each once (in the order first made); `samples` are
/// the exercise's cases' inputs.
pub fn inputs(format: &InputFormat, samples: &[String], count: usize, seed: u64) -> Vec<String> {
    // The same input again would only run again with the same result: a change to a
    // short sample often comes up more than once (save_load's made a quarter of its 300
    // twice).
    let mut seen = HashSet::new();
    made_up(format, samples, count, seed)
        .into_iter()
        .filter(|input| seen.insert(input.clone()))
        .collect()
}

/// `count` inputs for `format`, some of them possibly the same.
fn made_up(format: &InputFormat, samples: &[String], count: usize, seed: u64) -> Vec<String> {
    // A program that reads nothing has one input to try: nothing.
    if *format == InputFormat::None {
        return vec![String::new()];
    }
    let mut random = Random(seed);
    (0..count)
        .filter_map(|index| match format {
            InputFormat::None => None,
            InputFormat::Grid {
                rows,
                columns,
                cells,
                ..
            } => {
                let grid = Grid::new(*rows, *columns, cells);
                match index % 4 {
                    3 if !samples.is_empty() => grid.perturbed(&mut random, samples),
                    kind => Some(grid.made_up(&mut random, kind, index / 4)),
                }
            }
            InputFormat::Integers { per_line: 2, .. } if index % 3 != 2 || samples.is_empty() => {
                Some(Moves::seen_in(samples).made_up(&mut random, index))
            }
            _ => perturbed_lines(&mut random, samples),
        })
        .collect()
}

/// A small, seeded generator (splitmix64): the same seed gives the same inputs everywhere.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (0 when `bound` is 0).
    fn below(&mut self, bound: usize) -> usize {
        match bound {
            0 => 0,
            _ => (self.next() % bound as u64) as usize,
        }
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for index in (1..items.len()).rev() {
            items.swap(index, self.below(index + 1));
        }
    }
}

/// A sample changed once or more: a line dropped, doubled, swapped with the next, or the
/// last; the lines in reverse order; the words of every line in reverse order (moves
/// `row col` become `col row`: the same game on the board turned over its diagonal).
fn perturbed_lines(random: &mut Random, samples: &[String]) -> Option<String> {
    if samples.is_empty() {
        return None;
    }
    let mut lines: Vec<String> = random.pick(samples).lines().map(String::from).collect();
    if lines.is_empty() {
        return None;
    }
    loop {
        let at = random.below(lines.len());
        match random.below(6) {
            0 if lines.len() > 1 => drop(lines.remove(at)),
            1 => lines.insert(at, lines[at].clone()),
            2 if at + 1 < lines.len() => lines.swap(at, at + 1),
            3 => lines.truncate(at + 1),
            4 => lines.reverse(),
            _ => {
                for line in lines.iter_mut() {
                    *line = line.split_whitespace().rev().collect::<Vec<_>>().join(" ");
                }
            }
        }
        if random.chance(50) {
            break;
        }
    }
    Some(lines.iter().map(|line| format!("{line}\n")).collect())
}

struct Grid {
    rows: usize,
    columns: usize,
    /// The cells that are something (a player's stone); `empty` is the rest.
    marks: Vec<char>,
    empty: char,
}

impl Grid {
    fn new(rows: usize, columns: usize, cells: &str) -> Grid {
        let cells: Vec<char> = cells.chars().collect();
        // `.` is the empty cell where the course has one, else its last cell.
        let empty = match cells.contains(&'.') {
            true => '.',
            false => cells.last().copied().unwrap_or('.'),
        };
        let marks = cells
            .iter()
            .copied()
            .filter(|cell| *cell != empty)
            .collect();
        Grid {
            rows,
            columns,
            marks,
            empty,
        }
    }

    fn blank(&self) -> Vec<Vec<char>> {
        vec![vec![self.empty; self.columns]; self.rows]
    }

    fn text(cells: &[Vec<char>]) -> String {
        cells
            .iter()
            .map(|row| row.iter().collect::<String>() + "\n")
            .collect()
    }

    /// Kind 0: one line among scattered marks; kind 1: a line of each of two marks;
    /// kind 2: a crowded grid. Lines take the directions in turn (`turn`), and start at
    /// an edge half of the time.
    fn made_up(&self, random: &mut Random, kind: usize, turn: usize) -> String {
        let mut cells = self.blank();
        if self.marks.is_empty() {
            return Grid::text(&cells);
        }
        let density = match kind {
            2 => 30 + random.below(40),
            _ => random.below(15),
        };
        for row in cells.iter_mut() {
            for cell in row.iter_mut() {
                if random.chance(density) {
                    *cell = *random.pick(&self.marks);
                }
            }
        }
        if kind == 2 {
            return Grid::text(&cells);
        }
        let first = self.marks[turn % self.marks.len()];
        self.line(
            random,
            &mut cells,
            first,
            DIRECTIONS[turn % DIRECTIONS.len()],
        );
        if kind == 1 && self.marks.len() > 1 {
            let second = self.marks[(turn + 1) % self.marks.len()];
            let direction = *random.pick(&DIRECTIONS);
            self.line(random, &mut cells, second, direction);
        }
        Grid::text(&cells)
    }

    /// Draws a line of 4 to 6 `mark`s going `direction`, where it fits.
    fn line(
        &self,
        random: &mut Random,
        cells: &mut [Vec<char>],
        mark: char,
        direction: (i64, i64),
    ) {
        let length = *random.pick(&[4, 5, 5, 5, 6]) as i64;
        let (rows, columns) = (self.rows as i64, self.columns as i64);
        for _ in 0..50 {
            let mut row = random.below(self.rows) as i64;
            let mut column = random.below(self.columns) as i64;
            if random.chance(50) {
                // Against an edge: the first or last row or column.
                match random.below(4) {
                    0 => row = 0,
                    1 => row = rows - 1 - (length - 1) * direction.0,
                    2 => column = if direction.1 < 0 { columns - 1 } else { 0 },
                    _ => column = columns - 1 - (length - 1) * direction.1.max(0),
                }
            }
            let inside = |k: i64| {
                let (r, c) = (row + k * direction.0, column + k * direction.1);
                (0..rows).contains(&r) && (0..columns).contains(&c)
            };
            if (0..length).all(inside) {
                for k in 0..length {
                    let (r, c) = (row + k * direction.0, column + k * direction.1);
                    cells[r as usize][c as usize] = mark;
                }
                return;
            }
        }
    }

    /// A sample grid with one to three cells changed.
    fn perturbed(&self, random: &mut Random, samples: &[String]) -> Option<String> {
        let mut cells: Vec<Vec<char>> = random
            .pick(samples)
            .lines()
            .map(|line| line.chars().collect())
            .collect();
        if cells.iter().all(Vec::is_empty) {
            return None;
        }
        let choices: Vec<char> = self.marks.iter().copied().chain([self.empty]).collect();
        for _ in 0..1 + random.below(3) {
            let row = random.below(cells.len());
            if !cells[row].is_empty() {
                let column = random.below(cells[row].len());
                cells[row][column] = *random.pick(&choices);
            }
        }
        Some(Grid::text(&cells))
    }
}

/// Moves `row col` on a square board, its size read from the cases' moves.
struct Moves {
    size: i64,
}

impl Moves {
    /// The board holds the moves the cases make, but for the few that are off it on purpose:
    /// its side is one more than the largest of 95% of the numbers.
    fn seen_in(samples: &[String]) -> Moves {
        let mut numbers: Vec<i64> = samples
            .iter()
            .flat_map(|sample| sample.split_whitespace())
            .filter_map(|word| word.parse().ok())
            .filter(|number| *number >= 0)
            .collect();
        numbers.sort_unstable();
        let size = match numbers.len() {
            0 => 15,
            n => numbers[(n * 95 / 100).min(n - 1)] + 1,
        };
        Moves { size }
    }

    /// Kind 0: a game of random moves; kind 1: a game where one player lays a line (in a
    /// shuffled order) and the other plays elsewhere. Both have illegal moves now and then.
    fn made_up(&self, random: &mut Random, index: usize) -> String {
        let size = self.size;
        let mut free: Vec<(i64, i64)> = (0..size)
            .flat_map(|row| (0..size).map(move |column| (row, column)))
            .collect();
        random.shuffle(&mut free);
        let mut moves: Vec<(i64, i64)> = Vec::new();
        if index % 3 == 1 {
            let direction = DIRECTIONS[(index / 3) % DIRECTIONS.len()];
            let length = *random.pick(&[4, 5, 5, 6]);
            let start = free.iter().copied().find(|&(row, column)| {
                let end = (
                    row + (length - 1) * direction.0,
                    column + (length - 1) * direction.1,
                );
                (0..size).contains(&end.0) && (0..size).contains(&end.1)
            });
            if let Some((row, column)) = start {
                let mut line: Vec<(i64, i64)> = (0..length)
                    .map(|k| (row + k * direction.0, column + k * direction.1))
                    .collect();
                random.shuffle(&mut line);
                free.retain(|cell| !line.contains(cell));
                // The line is the first or the second player's.
                if random.chance(50) {
                    moves.push(free.pop().unwrap_or((0, 0)));
                }
                for cell in line {
                    moves.push(cell);
                    moves.push(free.pop().unwrap_or((0, 0)));
                }
            }
        }
        let length = 1 + random.below(free.len());
        moves.extend(free.into_iter().take(length));
        let mut lines = String::new();
        for (row, column) in moves {
            if random.chance(8) {
                let off = *random.pick(&[-1, size, size + 5]);
                match random.chance(50) {
                    true => lines.push_str(&format!("{off} {column}\n")),
                    false => lines.push_str(&format!("{row} {off}\n")),
                }
            }
            if random.chance(4) {
                lines.push_str(&format!("{row} {column}\n")); // the same cell twice
            }
            lines.push_str(&format!("{row} {column}\n"));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> InputFormat {
        InputFormat::Grid {
            rows: 15,
            columns: 15,
            cells: "BW.".into(),
            name: None,
        }
    }

    #[test]
    fn inputs_have_the_exercise_s_shape_and_depend_on_the_seed_only() {
        let made = inputs(&board(), &[], 40, 7);
        assert_eq!(made.len(), 40);
        for input in &made {
            board().check(input).unwrap();
        }
        assert_eq!(made, inputs(&board(), &[], 40, 7));
        assert_ne!(made, inputs(&board(), &[], 40, 8));
        let moves = InputFormat::Integers {
            per_line: 2,
            name: None,
        };
        let sample = "7 7\n0 0\n14 14\n-1 3\n".to_string();
        for input in inputs(&moves, &[sample], 30, 1) {
            moves.check(&input).unwrap();
        }
        assert_eq!(inputs(&InputFormat::None, &[], 30, 1), [""]);
        // Text is made from the cases' inputs only: without any, there is none.
        assert!(inputs(&InputFormat::Text, &[], 30, 1).is_empty());
    }

    #[test]
    fn each_input_is_tried_once_in_the_order_first_made() {
        // A short sample changed a line at a time comes up again and again.
        let sample = "u\nq\n".to_string();
        let made = made_up(&InputFormat::Text, std::slice::from_ref(&sample), 60, 3);
        let kept = inputs(&InputFormat::Text, &[sample], 60, 3);
        assert_eq!(made.len(), 60);
        assert!(kept.len() < made.len(), "{made:?}");
        let mut first_made = Vec::new();
        for input in made {
            if !first_made.contains(&input) {
                first_made.push(input);
            }
        }
        assert_eq!(kept, first_made);
    }

    #[test]
    fn grids_hold_lines_in_every_direction() {
        let made = inputs(&board(), &[], 16, 1);
        for (index, (dr, dc)) in DIRECTIONS.iter().enumerate() {
            // Kind 0 of turn `index`: a line of at least four in that direction.
            let cells: Vec<Vec<char>> = made[index * 4]
                .lines()
                .map(|line| line.chars().collect())
                .collect();
            let found = (0..15i64).any(|r| {
                (0..15i64).any(|c| {
                    let mark = cells[r as usize][c as usize];
                    mark != '.'
                        && (0..4).all(|k| {
                            let (nr, nc) = (r + k * dr, c + k * dc);
                            (0..15).contains(&nr)
                                && (0..15).contains(&nc)
                                && cells[nr as usize][nc as usize] == mark
                        })
                })
            });
            assert!(found, "no line ({dr}, {dc}) in\n{}", made[index * 4]);
        }
    }
}

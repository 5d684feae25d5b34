//! The standings of a round-robin tournament between game-playing programs, as
//! cutechess-cli, fastchess and BayesElo show them: points, Sonneborn–Berger tie-break,
//! an Elo rating with its 95% margin, and the crosstable. Pure computation, no I/O.

/// One finished game between two players (indexes into the tournament's player list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The player who played X.
    pub x: usize,
    /// The player who played O.
    pub o: usize,
    /// How the game ended.
    pub result: GameResult,
}

/// How one game ended, seen from the board (X or O), not from a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The player on X won.
    XWon,
    /// The player on O won.
    OWon,
    /// Nobody won.
    Draw,
}

/// One player's line in the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player's index in the tournament's player list.
    pub player: usize,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// 1 per win, 1/2 per draw.
    pub points: f64,
    /// Elo rating relative to the field's average (the average is 0), from a Bradley–Terry
    /// maximum-likelihood fit of all games (draws count as half a win for each side).
    /// 0 for a player with no games.
    pub elo: f64,
    /// Half-width of the 95% confidence interval of `elo` (±), from the fit's Fisher
    /// information. `f64::INFINITY` for a player with no games: nothing is known of it.
    pub elo_margin: f64,
    /// Sonneborn–Berger tie-break: sum of the points of the opponents this player beat,
    /// plus half the points of those it drew (counted game by game, so beating the same
    /// opponent twice counts its points twice).
    pub tie_break: f64,
}

/// Relative change of every strength under which the fit counts as converged.
const TOLERANCE: f64 = 1e-9;
/// Cap on the fit's iterations, so a pathological tournament cannot hang the command;
/// with the prior the fit is well conditioned and converges long before.
const MAX_ITERATIONS: usize = 100_000;
/// z for a two-sided 95% interval.
const Z95: f64 = 1.96;
/// Elo points per natural-log unit of strength: Elo = 400·log10(γ) = ELO_PER_NEPER·ln(γ).
const ELO_PER_NEPER: f64 = 400.0 / std::f64::consts::LN_10;

/// The points each side of a game scored: (X's, O's).
fn scores(result: GameResult) -> (f64, f64) {
    match result {
        GameResult::XWon => (1.0, 0.0),
        GameResult::OWon => (0.0, 1.0),
        GameResult::Draw => (0.5, 0.5),
    }
}

/// Panics on a game that names a player out of range or a player against itself: the
/// caller's pairing is broken, and any figure computed from it would be wrong.
fn check(players: usize, game: &Game) {
    assert!(
        game.x < players && game.o < players,
        "game {game:?} names a player out of 0..{players}"
    );
    assert_ne!(game.x, game.o, "game {game:?} pits a player against itself");
}

/// The crosstable: cell [i][j] = (points of i against j, games between them); None on the
/// diagonal. A pair that never met has `Some((0.0, 0))`.
pub fn crosstable(players: usize, games: &[Game]) -> Vec<Vec<Option<(f64, u32)>>> {
    let mut table: Vec<Vec<Option<(f64, u32)>>> = (0..players)
        .map(|i| (0..players).map(|j| (i != j).then_some((0.0, 0))).collect())
        .collect();
    for game in games {
        check(players, game);
        let (x_points, o_points) = scores(game.result);
        for (me, them, points) in [(game.x, game.o, x_points), (game.o, game.x, o_points)] {
            if let Some((p, n)) = &mut table[me][them] {
                *p += points;
                *n += 1;
            }
        }
    }
    table
}

/// The standings, best first: by points, then tie_break, then elo, then player index
/// (stable, reproducible).
pub fn standings(players: usize, games: &[Game]) -> Vec<Standing> {
    let mut lines: Vec<Standing> = (0..players)
        .map(|player| Standing {
            player,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            points: 0.0,
            elo: 0.0,
            elo_margin: f64::INFINITY,
            tie_break: 0.0,
        })
        .collect();
    for game in games {
        check(players, game);
        let (x_points, o_points) = scores(game.result);
        for (me, points) in [(game.x, x_points), (game.o, o_points)] {
            let line = &mut lines[me];
            line.games += 1;
            line.points += points;
            match game.result {
                GameResult::Draw => line.draws += 1,
                _ if points == 1.0 => line.wins += 1,
                _ => line.losses += 1,
            }
        }
    }
    // Sonneborn–Berger needs everyone's final points, hence a second pass.
    let points: Vec<f64> = lines.iter().map(|line| line.points).collect();
    for game in games {
        let (x_points, o_points) = scores(game.result);
        lines[game.x].tie_break += x_points * points[game.o];
        lines[game.o].tie_break += o_points * points[game.x];
    }
    for (line, (elo, margin)) in lines.iter_mut().zip(fit_elo(players, games)) {
        line.elo = elo;
        line.elo_margin = margin;
    }
    lines.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.tie_break.total_cmp(&a.tie_break))
            .then(elo_key(b.elo).cmp(&elo_key(a.elo)))
            .then(a.player.cmp(&b.player))
    });
    lines
}

/// Elo rounded to a ten-thousandth of a point for sorting: the fit is only converged to
/// about 1e-7 Elo, so players with equal results (a cycle A>B>C>A) must not be ordered by
/// the fit's noise but fall through to the player index.
fn elo_key(elo: f64) -> i64 {
    (elo * 1e4).round() as i64
}

/// Bradley–Terry fit of all games, by the MM algorithm (Hunter 2004): each player's
/// (Elo, 95% margin), the Elo of the players who played averaging 0.
///
/// Draws count as half a win for each side. As a weak prior, every player who played gets
/// one virtual draw against a virtual player of fixed strength 1: it keeps the fit finite
/// when a player won or lost every game, and pins the scale (otherwise the likelihood only
/// knows strength ratios). Players with no games take no part: Elo 0 (the field's
/// average), margin infinite.
fn fit_elo(players: usize, games: &[Game]) -> Vec<(f64, f64)> {
    // Games between each pair (symmetric) and each player's score, prior included.
    let mut meetings = vec![vec![0.0f64; players]; players];
    let mut score = vec![0.0f64; players];
    let mut played = vec![false; players];
    for game in games {
        let (x_points, o_points) = scores(game.result);
        meetings[game.x][game.o] += 1.0;
        meetings[game.o][game.x] += 1.0;
        score[game.x] += x_points;
        score[game.o] += o_points;
        played[game.x] = true;
        played[game.o] = true;
    }
    for i in (0..players).filter(|&i| played[i]) {
        score[i] += 0.5; // The virtual draw's half point.
    }

    let mut strength = vec![1.0f64; players];
    for _ in 0..MAX_ITERATIONS {
        let mut largest_change = 0.0f64;
        // Cyclic updates (each player sees the others' newest strengths) converge faster
        // than updating everyone at once, and the fixed point is the same.
        for i in (0..players).filter(|&i| played[i]) {
            let mut denominator = 1.0 / (strength[i] + 1.0); // The virtual game.
            for j in (0..players).filter(|&j| meetings[i][j] > 0.0) {
                denominator += meetings[i][j] / (strength[i] + strength[j]);
            }
            let updated = score[i] / denominator;
            largest_change = largest_change.max((updated - strength[i]).abs() / strength[i]);
            strength[i] = updated;
        }
        if largest_change < TOLERANCE {
            break;
        }
    }

    let elo: Vec<f64> = strength.iter().map(|s| ELO_PER_NEPER * s.ln()).collect();
    let rated = played.iter().filter(|&&p| p).count();
    let mean = if rated == 0 {
        0.0
    } else {
        (0..players)
            .filter(|&i| played[i])
            .map(|i| elo[i])
            .sum::<f64>()
            / rated as f64
    };
    (0..players)
        .map(|i| {
            if !played[i] {
                return (0.0, f64::INFINITY);
            }
            // Fisher information of ln γ_i: Σ p(1-p) over its games, the virtual one included.
            let expected = |other: f64| strength[i] / (strength[i] + other);
            let p = expected(1.0);
            let mut information = p * (1.0 - p);
            for j in (0..players).filter(|&j| meetings[i][j] > 0.0) {
                let p = expected(strength[j]);
                information += meetings[i][j] * p * (1.0 - p);
            }
            let margin = Z95 * ELO_PER_NEPER / information.sqrt();
            (elo[i] - mean, margin)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use GameResult::{Draw, OWon, XWon};

    fn game(x: usize, o: usize, result: GameResult) -> Game {
        Game { x, o, result }
    }

    fn by_player(lines: &[Standing]) -> Vec<Standing> {
        let mut lines = lines.to_vec();
        lines.sort_by_key(|line| line.player);
        lines
    }

    #[test]
    fn one_win_each_way_gives_equal_elo() {
        let games = [game(0, 1, XWon), game(1, 0, XWon)];
        let lines = standings(2, &games);
        for line in &lines {
            assert_eq!(
                (line.games, line.wins, line.draws, line.losses),
                (2, 1, 0, 1)
            );
            assert_eq!(line.points, 1.0);
            assert!(line.elo.abs() < 1e-6, "{line:?}");
            assert!(line.elo_margin.is_finite() && line.elo_margin > 0.0);
        }
        assert_eq!(lines[0].player, 0);
        assert_eq!(lines[1].player, 1);
    }

    #[test]
    fn a_cycle_gives_equal_elo_and_orders_by_index() {
        // A beats B, B beats C, C beats A, with colours mixed.
        let games = [game(0, 1, XWon), game(2, 1, OWon), game(2, 0, XWon)];
        let lines = standings(3, &games);
        assert_eq!(
            lines.iter().map(|l| l.player).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        for line in &lines {
            assert_eq!(line.points, 1.0);
            assert_eq!(line.tie_break, 1.0);
            assert!(line.elo.abs() < 1e-6, "{line:?}");
            assert!((line.elo_margin - lines[0].elo_margin).abs() < 1e-6);
        }
    }

    #[test]
    fn a_perfect_score_gets_the_top_and_a_finite_elo() {
        let mut games = Vec::new();
        for _ in 0..5 {
            games.extend([game(0, 1, XWon), game(2, 0, OWon), game(1, 2, Draw)]);
        }
        let lines = standings(3, &games);
        let top = &lines[0];
        assert_eq!(top.player, 0);
        assert_eq!((top.wins, top.losses, top.points), (10, 0, 10.0));
        assert!(top.elo.is_finite() && top.elo > 200.0, "{top:?}");
        assert!(
            top.elo_margin.is_finite() && top.elo_margin > 0.0,
            "{top:?}"
        );
        // 1 and 2 are alike: both lost 5 to 0 and drew 5 between them.
        assert!((lines[1].elo - lines[2].elo).abs() < 1e-6);
        assert!((top.elo + lines[1].elo + lines[2].elo).abs() < 1e-6);
    }

    #[test]
    fn a_75_percent_score_is_about_191_elo() {
        let mut games = Vec::new();
        for _ in 0..150 {
            games.extend([game(0, 1, XWon), game(1, 0, OWon)]);
        }
        for _ in 0..50 {
            games.extend([game(0, 1, OWon), game(1, 0, XWon)]);
        }
        let lines = by_player(&standings(2, &games));
        assert_eq!(lines[0].points, 300.0);
        let difference = lines[0].elo - lines[1].elo;
        // 400·log10(3) ≈ 190.85 without the prior; the prior's draws pull it a little
        // toward 0 (about 189.0 here).
        assert!(
            difference < 400.0 * 3f64.log10() && difference > 188.0,
            "{difference}"
        );
        assert!((lines[0].elo + lines[1].elo).abs() < 1e-9);
        // 400 games at p = 3/4: I ≈ 400·3/16 = 75, margin ≈ 1.96·173.7/√75 ≈ 39.3.
        assert!(
            (lines[0].elo_margin - 39.3).abs() < 0.5,
            "{}",
            lines[0].elo_margin
        );
    }

    #[test]
    fn crosstable_sums_agree_with_points() {
        let games = [
            game(0, 1, XWon),
            game(1, 0, Draw),
            game(0, 2, OWon),
            game(2, 1, Draw),
            game(1, 2, XWon),
            game(3, 0, XWon),
        ];
        let table = crosstable(4, &games);
        assert_eq!(table[0][1], Some((1.5, 2)));
        assert_eq!(table[1][0], Some((0.5, 2)));
        assert_eq!(table[1][3], Some((0.0, 0)));
        for (i, row) in table.iter().enumerate() {
            assert_eq!(row[i], None);
        }
        for line in standings(4, &games) {
            let row = &table[line.player];
            let points: f64 = row.iter().flatten().map(|(p, _)| p).sum();
            let games: u32 = row.iter().flatten().map(|(_, n)| n).sum();
            assert_eq!((points, games), (line.points, line.games), "{line:?}");
        }
    }

    #[test]
    fn tie_break_by_hand() {
        // 0 beats 1, 0 draws 2, 1 beats 2, 3 beats 2:
        // points 0: 1.5, 1: 1, 2: 0.5, 3: 1.
        let games = [
            game(0, 1, XWon),
            game(2, 0, Draw),
            game(1, 2, XWon),
            game(2, 3, OWon),
        ];
        let lines = by_player(&standings(4, &games));
        let points: Vec<f64> = lines.iter().map(|l| l.points).collect();
        assert_eq!(points, [1.5, 1.0, 0.5, 1.0]);
        // 0: beat 1 (1) + half of 2 (0.25); 1: beat 2 (0.5); 2: half of 0 (0.75); 3: beat 2.
        let tie_breaks: Vec<f64> = lines.iter().map(|l| l.tie_break).collect();
        assert_eq!(tie_breaks, [1.25, 0.5, 0.75, 0.5]);
        // 1 and 3 tie on points and tie-break; the fit decides: 1 lost to the leader,
        // 3 lost nothing (Elo ≈ 63.6, -29.5, -156.4, 122.2, checked by an independent fit).
        assert!((lines[0].elo - 63.6475).abs() < 1e-3, "{:?}", lines[0]);
        assert!((lines[3].elo - 122.2149).abs() < 1e-3, "{:?}", lines[3]);
        let order: Vec<usize> = standings(4, &games).iter().map(|l| l.player).collect();
        assert_eq!(order, [0, 3, 1, 2]);
    }

    #[test]
    fn a_player_without_games() {
        let games = [game(0, 1, XWon), game(1, 0, XWon)];
        let lines = by_player(&standings(3, &games));
        let idle = &lines[2];
        assert_eq!((idle.games, idle.points, idle.tie_break), (0, 0.0, 0.0));
        assert_eq!(idle.elo, 0.0);
        assert_eq!(idle.elo_margin, f64::INFINITY);
        assert!(lines[0].elo.abs() < 1e-6 && lines[1].elo.abs() < 1e-6);
        assert_eq!(standings(3, &games)[2].player, 2);
        let empty = standings(2, &[]);
        assert!(
            empty
                .iter()
                .all(|l| l.elo == 0.0 && l.elo_margin.is_infinite())
        );
    }
}

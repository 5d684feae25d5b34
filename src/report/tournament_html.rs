//! The page of a class tournament (`clings tournament --html`): one self-contained HTML
//! page, like the class report (no network, no file beside it, it prints), drawn from the
//! tournament's document alone. It shows the standings, the crosstable, and every game,
//! each of which replays on a board of its own once opened.
//!
//! Player names are students' directory names and reasons quote what their programs
//! wrote: the page's template (`assets/tournament.html`) escapes every text it places
//! (see [`crate::report::markup`]), and the script's data is JSON that cannot close the
//! script ([`script_json`]). A game's moves are embedded once, as a compact JSON
//! array of `[row, column]` that is both the text a reader without script reads and what
//! the page's script replays; the board is built only for the game opened, so a class of
//! 30 (870 games) stays a small page that opens at once.

use std::collections::BTreeMap;

use askama::Template;
use serde_json::json;

use crate::game::battle::{Record, SIZE, Said, Stone};
use crate::game::tournament::{Entry, Line, Tournament};
use crate::util::i18n::Lang;

/// The page: what its template (`assets/tournament.html`) shows, figured out here.
#[derive(Template)]
#[template(path = "tournament.html", config = "src/report/assets/askama.toml")]
struct TournamentPage<'a> {
    lang: Lang,
    title: &'static str,
    summary: String,
    standings: Vec<StandingRow<'a>>,
    /// The crosstable's key: each class of cell, and what it means.
    shares: [(&'static str, &'static str); 5],
    crosstable: Vec<CrossRow<'a>>,
    games_intro: String,
    games: Vec<GameRow<'a>>,
    /// The script's data (see [`labels`]), as [`script_json`] writes it.
    labels: String,
}

struct StandingRow<'a> {
    line: &'a Line,
    /// Why the player could not play, when it could not.
    forfeits: Option<&'a str>,
    /// An engine's label, its answer to ABOUT, beside the name it has by its file.
    about: Option<&'a str>,
    elo: String,
}

/// A player's row of the crosstable, by rank.
struct CrossRow<'a> {
    rank: usize,
    name: &'a str,
    cells: Vec<Meeting<'a>>,
}

/// A cell of the crosstable: the row's player against the column's.
enum Meeting<'a> {
    /// The row's points out of the games they played, and its class.
    Played {
        share: &'static str,
        points: f64,
        games: u32,
        against: &'a str,
    },
    /// The diagonal.
    Own,
    /// They did not meet.
    Never,
}

/// A game's line: its number as its replay file has it (game 1: `games/0001.txt`).
struct GameRow<'a> {
    number: usize,
    x: Side<'a>,
    o: Side<'a>,
    result: &'static str,
    reason: &'a str,
    moves: usize,
    /// Its moves, then its five, as JSON; none when no move was played.
    moves_json: Option<String>,
    five_json: Option<String>,
    /// What its engines wrote that is not a move, for the teacher.
    said: Vec<String>,
}

/// A player of a game: its name, its index in the players (for the filter), whether it won.
struct Side<'a> {
    name: &'a str,
    index: String,
    won: bool,
}

/// The whole page, in `lang` (the referee's reasons are in its own words).
pub fn page(tournament: &Tournament, lang: Lang) -> String {
    let standings = tournament.standings();
    let page = TournamentPage {
        lang,
        title: lang.pick("Tournament", "班级比赛"),
        summary: tournament.summary(lang),
        standings: standings_rows(tournament, &standings),
        shares: [
            ("s4", lang.pick("won all", "全胜")),
            ("s3", lang.pick("more than half", "过半")),
            ("s2", lang.pick("half", "一半")),
            ("s1", lang.pick("less than half", "不到一半")),
            ("s0", lang.pick("none", "零分")),
        ],
        crosstable: crosstable(tournament, &standings),
        games_intro: lang.pick(
            format!(
                "Open a game to replay it on a {SIZE}x{SIZE} board. Its moves are listed as \
                 [row, column], X (black) first, the players alternating; its number is that \
                 of its replay in games/ (game 1: games/0001.txt)."
            ),
            format!(
                "点开一局即可在 {SIZE}x{SIZE} 棋盘上回放。着法按 [行, 列] 列出，X（黑）先行，双方交替；\
                 编号与 games/ 中的回放文件一致（第 1 局：games/0001.txt）。"
            ),
        ),
        games: games(tournament),
        labels: script_json(&labels(tournament, lang)),
    };
    page.render()
        .expect("a page renders: its template writes to a String")
}

/// `value` as JSON to put inside a `<script>`: no `<`, `>` or `&` in it (as `\u003c`...,
/// which JSON and JavaScript read the same), so no text in it can close the script.
pub fn script_json(value: &serde_json::Value) -> String {
    // Outside strings, JSON has none of these characters: replacing them everywhere only
    // touches the strings.
    serde_json::to_string(value)
        .unwrap_or_else(|_| "null".to_string())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// What the script writes, in `lang`, and the players' names (for its filter).
fn labels(tournament: &Tournament, lang: Lang) -> serde_json::Value {
    let names: Vec<&str> = tournament
        .players
        .iter()
        .map(|entry| entry.name.as_str())
        .collect();
    json!({
        "players": names,
        "all": lang.pick("all players", "全部选手"),
        "show": lang.pick("Games of", "显示对局："),
        "move": lang.pick("move", "第"),
        "moveEnd": lang.pick("", " 手"),
        "of": lang.pick("of", "/"),
        "board": lang.pick("Board after", "棋盘："),
        "start": lang.pick("the empty board", "空棋盘"),
        "first": lang.pick("first move", "第一手"),
        "previous": lang.pick("previous move", "上一手"),
        "next": lang.pick("next move", "下一手"),
        "last": lang.pick("last move", "最后一手"),
        "step": lang.pick("Move", "手数"),
        "five": lang.pick("the winning five", "连成的五子"),
    })
}

/// The index in `players` of each name.
fn indexes(tournament: &Tournament) -> BTreeMap<&str, usize> {
    tournament
        .players
        .iter()
        .enumerate()
        .map(|(index, entry)| (entry.name.as_str(), index))
        .collect()
}

fn standings_rows<'a>(tournament: &'a Tournament, standings: &'a [Line]) -> Vec<StandingRow<'a>> {
    let index = indexes(tournament);
    standings
        .iter()
        .map(|line| {
            let entry = index
                .get(line.name.as_str())
                .map(|&i| &tournament.players[i]);
            StandingRow {
                line,
                forfeits: entry.and_then(|entry| entry.forfeits.as_deref()),
                about: entry.and_then(Entry::about),
                elo: match line.standing.elo_margin {
                    Some(margin) => format!("{:+} ± {margin}", line.standing.elo),
                    None => "—".to_string(),
                },
            }
        })
        .collect()
}

/// A crosstable cell's class: the row player's share of the points, in five steps.
fn share_class(points: f64, games: u32) -> &'static str {
    // Points are halves: twice them is a whole number, compared exactly.
    let (twice, games) = ((points * 2.0).round() as u64, u64::from(games.max(1)));
    match twice.cmp(&games) {
        _ if twice >= 2 * games => "s4",
        std::cmp::Ordering::Greater => "s3",
        std::cmp::Ordering::Equal => "s2",
        _ if twice > 0 => "s1",
        _ => "s0",
    }
}

fn crosstable<'a>(tournament: &Tournament, standings: &'a [Line]) -> Vec<CrossRow<'a>> {
    let index = indexes(tournament);
    let cross = tournament.crosstable();
    standings
        .iter()
        .map(|row| CrossRow {
            rank: row.rank,
            name: &row.name,
            cells: standings
                .iter()
                .map(|column| {
                    let cell = index
                        .get(row.name.as_str())
                        .zip(index.get(column.name.as_str()))
                        .and_then(|(&i, &j)| cross[i][j].filter(|_| i != j));
                    match cell {
                        Some((points, games)) if games > 0 => Meeting::Played {
                            share: share_class(points, games),
                            points,
                            games,
                            against: &column.name,
                        },
                        _ if row.name == column.name => Meeting::Own,
                        _ => Meeting::Never,
                    }
                })
                .collect(),
        })
        .collect()
}

/// `1–0`, `0–1`, `½–½`.
fn result(record: &Record) -> &'static str {
    match record.winner {
        Some(Stone::X) => "1–0",
        Some(Stone::O) => "0–1",
        None => "½–½",
    }
}

/// Cells as a compact JSON array of `[row, column]`.
fn cells_json(cells: impl Iterator<Item = [u8; 2]>) -> String {
    let cells: Vec<String> = cells.map(|[row, col]| format!("[{row},{col}]")).collect();
    format!("[{}]", cells.join(","))
}

fn games<'a>(tournament: &'a Tournament) -> Vec<GameRow<'a>> {
    let index = indexes(tournament);
    let side = |name: &'a str, won: bool| Side {
        name,
        index: index.get(name).map_or(String::new(), |i| i.to_string()),
        won,
    };
    tournament
        .games
        .iter()
        .map(|game| {
            let record = &game.record;
            let played = !record.moves.is_empty();
            GameRow {
                number: game.number,
                x: side(&record.x, record.winner == Some(Stone::X)),
                o: side(&record.o, record.winner == Some(Stone::O)),
                result: result(record),
                reason: &record.reason,
                moves: record.moves.len(),
                moves_json: played
                    .then(|| cells_json(record.moves.iter().map(|step| [step.row, step.col]))),
                five_json: (played && !record.five.is_empty())
                    .then(|| cells_json(record.five.iter().copied())),
                said: record.said.iter().map(Said::shown).collect(),
            }
        })
        .collect()
}

/// The tournament's tables and games, and the board of a game opened.
const STYLE: &str = include_str!("assets/tournament.css");

/// The filter by player, and the board of a game opened.
const SCRIPT: &str = include_str!("assets/tournament.js");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::battle::Move;
    use crate::game::tournament::{Entry, Played};

    const HOSTILE: &str = "<script>alert(1)</script>";

    fn game(number: usize, x: &str, o: &str, winner: Option<Stone>, moves: usize) -> Played {
        let moves: Vec<Move> = (0..moves)
            .map(|i| Move {
                stone: if i % 2 == 0 { Stone::X } else { Stone::O },
                row: (i / 15) as u8,
                col: (i % 15) as u8,
            })
            .collect();
        Played {
            number,
            seed: number as u64,
            record: Record {
                x: x.to_string(),
                o: o.to_string(),
                winner,
                reason: format!("{x} wrote 'a</script><b>' & left"),
                five: match winner {
                    Some(_) => (0..5).map(|col| [0, col * 2]).collect(),
                    None => Vec::new(),
                },
                moves,
                said: Vec::new(),
            },
        }
    }

    fn tournament(names: &[&str], moves: usize) -> Tournament {
        let mut games = Vec::new();
        for (x, first) in names.iter().enumerate() {
            for (o, second) in names.iter().enumerate() {
                if x != o {
                    let winner = match (x + o) % 3 {
                        0 => None,
                        1 => Some(Stone::X),
                        _ => Some(Stone::O),
                    };
                    games.push(game(games.len() + 1, first, second, winner, moves));
                }
            }
        }
        Tournament {
            players: names
                .iter()
                .enumerate()
                .map(|(index, name)| Entry {
                    name: name.to_string(),
                    forfeits: (index == 1).then(|| "ai.c:3: error: <expected ';'>".to_string()),
                    refused: false,
                    engine: None,
                })
                .collect(),
            rounds: 1,
            seed: 7,
            rules: Default::default(),
            time_tolerance_ms: 0,
            openings: Vec::new(),
            shard: None,
            games,
        }
    }

    #[test]
    fn names_and_reasons_from_students_cannot_become_markup() {
        let names = [
            HOSTILE,
            "</script><script>alert(2)",
            "ana & \"bo\"",
            "bot random",
        ];
        let page = page(&tournament(&names, 12), Lang::En);
        assert_eq!(
            page.matches("<script").count(),
            1,
            "the page's own script only"
        );
        assert_eq!(
            page.matches("</script>").count(),
            1,
            "the page's own script only"
        );
        assert!(!page.contains("<script>alert"), "a name is live");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("&lt;/script&gt;&lt;script&gt;alert(2)"));
        assert!(page.contains("ana &amp; &quot;bo&quot;"));
        assert!(page.contains("wrote &#39;a&lt;/script&gt;&lt;b&gt;&#39; &amp; left"));
        assert!(
            page.contains("&lt;expected &#39;;&#39;&gt;"),
            "the forfeit's reason"
        );
        // The names in the script's data, for its filter: JSON that cannot close it.
        let script = &page[page.find("<script>").unwrap()..];
        assert!(script.contains("\\u003c/script\\u003e\\u003cscript\\u003ealert(2)"));
        assert!(!page.contains("http://") && !page.contains("https://") && !page.contains(" src="));
    }

    /// Whatever a template places (a text, an attribute, the script's data), players'
    /// names, a forfeit's why and games' reasons are escaped there: one placed raw
    /// (`|safe`) leaves its element in the page.
    #[test]
    fn every_text_the_page_shows_is_escaped_wherever_the_template_places_it() {
        let mut tournament = tournament(&["<x-ann>", "<x-ben>", "<x-cid>"], 9);
        tournament.players[1].forfeits = Some("<x-why>".to_string());
        tournament.players[2].engine = Some(crate::game::tournament::EngineEntry {
            digest: "d".into(),
            about: Some("<x-about>".into()),
        });
        for game in &mut tournament.games {
            game.record.reason = format!("<x-reason-{}>", game.number);
            game.record.said.push(crate::game::battle::Said {
                stone: Stone::O,
                before_move: 2,
                text: format!("<x-said-{}>", game.number),
            });
        }
        let page = page(&tournament, Lang::En);
        assert!(!page.contains("<x-"), "a text placed raw: {page}");
        let mut shown = vec![
            "<th scope=\"row\">&lt;x-ann&gt;</th>".to_string(),
            "&lt;x-why&gt;</span>".to_string(),
            "&lt;x-cid&gt; <span class=\"about\">&lt;x-about&gt;</span></th>".to_string(),
            "<abbr title=\"&lt;x-cid&gt;\">".to_string(),
            "<th scope=\"row\">3 &lt;x-cid&gt;</th>".to_string(),
            "title=\"&lt;x-ann&gt; – &lt;x-ben&gt;\"".to_string(),
            "<i class=\"w\">&lt;x-ben&gt;</i>".to_string(),
            "\"players\":[\"\\u003cx-ann\\u003e\"".to_string(),
        ];
        shown.extend((1..=6).map(|number| format!("<i>&lt;x-reason-{number}&gt;</i>")));
        shown.extend(
            (1..=6).map(|number| format!("<li>O before move 2: &lt;x-said-{number}&gt;</li>")),
        );
        for shown in shown {
            assert!(page.contains(&shown), "{shown} is not on the page: {page}");
        }
    }

    #[test]
    fn the_page_has_the_standings_the_crosstable_and_every_game() {
        let names = ["ana", "ben", "cai"];
        let page = page(&tournament(&names, 9), Lang::En);
        for section in ["standings", "crosstable", "games"] {
            assert!(
                page.contains(&format!("<section id=\"{section}\">")),
                "{section}"
            );
        }
        assert_eq!(page.matches("<tr class=\"forfeit\">").count(), 1);
        assert!(page.contains("forfeits every game:"));
        assert_eq!(page.matches("<details class=\"game\"").count(), 6);
        assert!(
            page.contains("id=\"g1\" data-p=\"0 1\""),
            "game 1: ana (X) v ben"
        );
        // 3 players, 6 cells off the diagonal, each with its points out of 2 games.
        let selves = page.matches("<td class=\"self\">").count();
        assert_eq!(selves, 3);
        assert_eq!(page.matches("<td class=\"s").count() - selves, 6);
        assert!(
            page.contains("<p class=\"m\">[[0,0],[0,1],[0,2],"),
            "moves as JSON"
        );
        assert!(page.contains("<span class=\"f\">[[0,0],[0,2],[0,4],[0,6],[0,8]]</span>"));
        let chinese = super::page(&tournament(&names, 9), Lang::Zh);
        assert!(chinese.starts_with("<!DOCTYPE html>\n<html lang=\"zh\">"));
        assert!(chinese.contains("<h1>班级比赛</h1>") && chinese.contains("对阵表"));
    }

    #[test]
    fn a_class_of_30_is_a_small_page() {
        let names: Vec<String> = (0..30).map(|i| format!("student-{i:02}-surname")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        // 870 games of 80 moves each: longer than most games are.
        let tournament = tournament(&names, 80);
        assert_eq!(tournament.games.len(), 870);
        let page = page(&tournament, Lang::En);
        eprintln!("30 players, 870 games of 80 moves: {} bytes", page.len());
        assert!(page.len() < 1024 * 1024, "{} bytes", page.len());
    }

    #[test]
    fn script_json_cannot_close_a_script() {
        let text = script_json(&json!({"a": "</script><!-- & >"}));
        assert_eq!(
            text,
            "{\"a\":\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u003e\"}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["a"], "</script><!-- & >");
    }
}

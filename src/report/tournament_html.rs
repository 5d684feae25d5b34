//! The page of a class tournament (`clings tournament --html`): one self-contained HTML
//! page, like the class report (no network, no file beside it, it prints), drawn from the
//! tournament's document alone. It shows the standings, the crosstable, and every game,
//! each of which replays on a board of its own once opened.
//!
//! Player names are students' directory names and reasons quote what their programs
//! wrote: every text is escaped. A game's moves are embedded once, as a compact JSON
//! array of `[row, column]` that is both the text a reader without script reads and what
//! the page's script replays; the board is built only for the game opened, so a class of
//! 30 (870 games) stays a small page that opens at once.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::json;

use crate::game::battle::{Record, SIZE, Stone};
use crate::game::tournament::{Line, Tournament};
use crate::report::html::BASE_STYLE;
use crate::report::markup::escape;
use crate::util::i18n::{Lang, count};

/// The whole page, in `lang` (the referee's reasons are in its own words).
pub fn page(tournament: &Tournament, lang: Lang) -> String {
    let standings = tournament.standings();
    let mut html = String::with_capacity(64 * 1024 + tournament.games.len() * 512);
    let title = lang.pick("Tournament", "班级比赛");
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{BASE_STYLE}{STYLE}</style></head><body>\n",
        lang.pick("en", "zh"),
    );
    let _ = writeln!(html, "<h1>{title}</h1>");
    let forfeits = tournament
        .players
        .iter()
        .filter(|entry| entry.forfeits.is_some())
        .count();
    let _ = writeln!(
        html,
        "<p class=\"summary\">{}</p>",
        lang.pick(
            format!(
                "{}, {} (each pair meets {}, two games with colours swapped; seed {}).{}",
                count(tournament.players.len(), "player", "players"),
                count(tournament.games.len(), "game", "games"),
                count(tournament.rounds as usize, "time", "times"),
                tournament.seed,
                match forfeits {
                    0 => String::new(),
                    n => format!(" {} could not play.", count(n, "player", "players")),
                }
            ),
            format!(
                "{} 名选手，{} 局（每对选手相遇 {} 次，每次两局，交换先后手；种子 {}）。{}",
                tournament.players.len(),
                tournament.games.len(),
                tournament.rounds,
                tournament.seed,
                match forfeits {
                    0 => String::new(),
                    n => format!("{n} 名选手无法参赛。"),
                }
            ),
        )
    );
    let _ = writeln!(
        html,
        "<nav><a href=\"#standings\">{}</a> · <a href=\"#crosstable\">{}</a> · \
         <a href=\"#games\">{}</a></nav>",
        lang.pick("Standings", "排名"),
        lang.pick("Crosstable", "对阵表"),
        lang.pick("Games", "对局"),
    );
    standings_table(&mut html, tournament, &standings, lang);
    crosstable(&mut html, tournament, &standings, lang);
    games(&mut html, tournament, lang);
    let _ = write!(
        html,
        "<script>var T={};{SCRIPT}</script>\n</body></html>\n",
        script_json(&labels(tournament, lang))
    );
    html
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

/// `1.5`, `2`: points as the terminal and the CSV write them.
fn points(value: f64) -> String {
    format!("{value}")
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

fn standings_table(html: &mut String, tournament: &Tournament, standings: &[Line], lang: Lang) {
    let _ = writeln!(
        html,
        "<section id=\"standings\"><h2>{}</h2><table class=\"standings\"><thead><tr>\
         <th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>\
         <th>{}</th><th>{}</th></tr></thead><tbody>",
        lang.pick("Standings", "排名"),
        lang.pick("rank", "名次"),
        lang.pick("player", "选手"),
        lang.pick("games", "局数"),
        lang.pick("won", "胜"),
        lang.pick("drawn", "和"),
        lang.pick("lost", "负"),
        lang.pick("points", "积分"),
        lang.pick("tie-break", "小分"),
        lang.pick("Elo ± margin", "Elo ± 误差"),
    );
    let index = indexes(tournament);
    for line in standings {
        let s = &line.standing;
        let forfeits = index
            .get(line.name.as_str())
            .and_then(|&i| tournament.players[i].forfeits.as_deref());
        let elo = match s.elo_margin {
            Some(margin) => format!("{:+} ± {margin}", s.elo),
            None => "—".to_string(),
        };
        let (class, why) = match forfeits {
            Some(why) => (
                " class=\"forfeit\"",
                format!(
                    " <span class=\"why\">{} {}</span>",
                    lang.pick("forfeits every game:", "每局判负："),
                    escape(why)
                ),
            ),
            None => ("", String::new()),
        };
        let _ = writeln!(
            html,
            "<tr{class}><td>{}</td><th scope=\"row\">{}{why}</th><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td><b>{}</b></td><td>{}</td><td>{elo}</td></tr>",
            line.rank,
            escape(&line.name),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            points(s.points),
            points(s.tie_break),
        );
    }
    let _ = writeln!(
        html,
        "</tbody></table><p class=\"note\">{}</p></section>",
        lang.pick(
            "A win is 1 point, a draw ½. Tie-break: Sonneborn–Berger (the points of the \
             opponents beaten, half those of the opponents drawn). Elo: a Bradley–Terry \
             rating from these games, ± its 95% margin. A player whose program does not \
             compile loses every game by forfeit.",
            "胜一局得 1 分，和棋得 ½ 分。小分：Sonneborn–Berger（所胜对手的积分，加上所和对手积分的一半）。\
             Elo：由这些对局算出的 Bradley–Terry 等级分，± 为其 95% 误差。程序无法编译的选手每局判负。"
        )
    );
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

fn crosstable(html: &mut String, tournament: &Tournament, standings: &[Line], lang: Lang) {
    let index = indexes(tournament);
    let cross = tournament.crosstable();
    let _ = write!(
        html,
        "<section id=\"crosstable\"><h2>{}</h2><p>{}</p><ul class=\"legend\">",
        lang.pick("Crosstable", "对阵表"),
        lang.pick(
            "Each cell: the points of the row's player against the column's, out of the \
             games they played (players by rank; hover a column's number for its name).",
            "每格：行选手对列选手的积分 / 两人对局数（选手按名次排列；鼠标悬停列号显示姓名）。"
        )
    );
    for (class, en, zh) in [
        ("s4", "won all", "全胜"),
        ("s3", "more than half", "过半"),
        ("s2", "half", "一半"),
        ("s1", "less than half", "不到一半"),
        ("s0", "none", "零分"),
    ] {
        let _ = write!(
            html,
            "<li><span class=\"key {class}\"></span> {}</li>",
            lang.pick(en, zh)
        );
    }
    let _ = write!(
        html,
        "</ul>\n<div class=\"wrap\"><table class=\"cross\"><caption>{}</caption><thead><tr><th></th>",
        lang.pick(
            "Points of the row's player against the column's",
            "行选手对列选手的积分"
        )
    );
    for line in standings {
        let _ = write!(
            html,
            "<th scope=\"col\"><abbr title=\"{}\">{}</abbr></th>",
            escape(&line.name),
            line.rank
        );
    }
    html.push_str("</tr></thead><tbody>\n");
    for row in standings {
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{} {}</th>",
            row.rank,
            escape(&row.name)
        );
        for column in standings {
            let cell = index
                .get(row.name.as_str())
                .zip(index.get(column.name.as_str()))
                .and_then(|(&i, &j)| cross[i][j].filter(|_| i != j));
            match cell {
                Some((won, games)) if games > 0 => {
                    let _ = write!(
                        html,
                        "<td class=\"{}\" title=\"{} – {}\">{}/{games}</td>",
                        share_class(won, games),
                        escape(&row.name),
                        escape(&column.name),
                        points(won)
                    );
                }
                _ if row.name == column.name => html.push_str("<td class=\"self\">—</td>"),
                _ => html.push_str("<td>·</td>"),
            }
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody></table></div></section>\n");
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

fn games(html: &mut String, tournament: &Tournament, lang: Lang) {
    let index = indexes(tournament);
    let _ = writeln!(
        html,
        "<section id=\"games\"><h2>{}</h2><p>{}</p><p id=\"filter\"></p>\
         <div class=\"games\"><div class=\"gh\"><b>#</b><i>{}</i><i>{}</i><i>{}</i><i>{}</i>\
         <i>{}</i></div>",
        lang.pick("Games", "对局"),
        lang.pick(
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
        lang.pick("X (first)", "X（先手）"),
        lang.pick("O", "O"),
        lang.pick("result", "结果"),
        lang.pick("why it ended", "结束原因"),
        lang.pick("moves", "手数"),
    );
    let (no_move, five) = lang.pick(
        ("No move was played.", "The winning five:"),
        ("没有落子。", "连成的五子："),
    );
    for game in &tournament.games {
        let record = &game.record;
        let player = |name: &str| index.get(name).map_or(String::new(), |i| i.to_string());
        let winner = |stone| match record.winner == Some(stone) {
            true => " class=\"w\"",
            false => "",
        };
        let _ = write!(
            html,
            "<details class=\"game\" id=\"g{}\" data-p=\"{} {}\"><summary><b>{}</b>\
             <i{}>{}</i><i{}>{}</i><i>{}</i><i>{}</i><i>{}</i></summary>",
            game.number + 1,
            player(&record.x),
            player(&record.o),
            game.number + 1,
            winner(Stone::X),
            escape(&record.x),
            winner(Stone::O),
            escape(&record.o),
            result(record),
            escape(&record.reason),
            record.moves.len()
        );
        if record.moves.is_empty() {
            let _ = write!(html, "<p>{no_move}</p>");
        } else {
            let _ = write!(
                html,
                "<p class=\"m\">{}</p>",
                cells_json(record.moves.iter().map(|step| [step.row, step.col]))
            );
            if !record.five.is_empty() {
                let _ = write!(
                    html,
                    "<p>{five} <span class=\"f\">{}</span></p>",
                    cells_json(record.five.iter().copied())
                );
            }
        }
        html.push_str("</details>\n");
    }
    html.push_str("</div></section>\n");
}

/// The tournament's tables and games; the board of an opened game (a grid, labelled with
/// its rows and columns). Okabe–Ito colours; every colour comes with its text.
const STYLE: &str = "\
.summary{max-width:60em}.note{font-size:.85em;color:#333;max-width:60em}\
table{border-collapse:collapse}th,td{padding:.15em .5em}\
table.standings th,table.standings td{border-bottom:1px solid #ddd;text-align:right}\
table.standings th[scope=row],table.standings thead th:nth-child(2){text-align:left}\
tr.forfeit th,tr.forfeit td{color:#666}tr.forfeit th[scope=row]{text-decoration:line-through}\
.why{display:block;font-size:.8em;font-weight:normal;color:#A33}\
tr.forfeit .why{text-decoration:none;display:block}\
.wrap{overflow-x:auto}\
table.cross{font-size:.85em}table.cross caption{text-align:left;font-size:.9em;color:#444}\
table.cross td{text-align:center;border:1px solid #fff;min-width:2.6em}\
table.cross th[scope=row]{text-align:left;white-space:nowrap}\
.s4{background:#009E73;color:#fff}.s3{background:#56B4E9;color:#000}\
.s2{background:#F0E442;color:#000}.s1{background:#E69F00;color:#000}\
.s0{background:#D55E00;color:#000}td.self{background:#eee}\
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3em 1.2em;font-size:.85em}\
.key{display:inline-block;width:1.3em;height:1.3em;border:1px solid #999;vertical-align:middle}\
.games{font-size:.9em}\
.gh,.game>summary{display:grid;grid-template-columns:3.5em minmax(6em,1fr) minmax(6em,1fr) 4em minmax(8em,2fr) 3.5em;gap:.6em;padding:.15em 0}\
.gh{font-weight:bold;border-bottom:1px solid #999}.gh i{font-style:normal}\
.game{border-bottom:1px solid #eee;content-visibility:auto;contain-intrinsic-size:auto 1.6em}\
.game>summary{cursor:pointer}.game>summary::-webkit-details-marker{display:none}\
.game>summary i{font-style:normal;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}\
.game[open]>summary i{white-space:normal;overflow-wrap:anywhere}\
.game>summary i.w{font-weight:bold}.game>summary i:last-child,.game>summary b{text-align:right}\
.game[open]{background:#f7f7f7;padding-bottom:.5em}\
.m,.f{font-family:ui-monospace,monospace;font-size:.85em;overflow-wrap:anywhere;color:#333}\
.viewer{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start;margin:.5em 0}\
.board{display:grid;grid-template-columns:repeat(16,22px);grid-auto-rows:22px;\
background:#E8C887;border:1px solid #8a6d3b;width:max-content}\
.board i{position:relative;font-style:normal;box-sizing:border-box;border:1px solid rgba(0,0,0,.25)}\
.board i.l{border:0;font-size:9px;color:#553;text-align:center;line-height:22px;background:#f7f7f7}\
.board i.x::after,.board i.o::after{content:'';position:absolute;inset:2px;border-radius:50%}\
.board i.x::after{background:#000}.board i.o::after{background:#fff;border:1px solid #000}\
.board i.last{outline:3px solid #D55E00;outline-offset:-3px;z-index:1}\
.board i.five{background:#009E73}\
.controls{display:flex;flex-wrap:wrap;gap:.4em;align-items:center}\
.controls button{min-width:2.4em;font-size:1em}.controls output{min-width:12em}\
@media print{nav,#filter,.controls{display:none}body{margin:0;max-width:none}.wrap{overflow:visible}\
.key,table.cross td,.board,.board i{print-color-adjust:exact;-webkit-print-color-adjust:exact}\
.game{content-visibility:visible}}\
";

/// The filter by player; the board of a game opened (built then, once: a page of 870
/// games builds one board, not 870), stepped by buttons and a slider; a game named in the
/// address (`#g12`) opened; and a mark that says everything drew, which the browser test
/// reads. `T` holds the labels and the players' names.
const SCRIPT: &str = "\
(function(){\
var S=15;\
var games=document.querySelectorAll('details.game');\
var filter=document.getElementById('filter');\
if(T.players.length>2){\
var label=document.createElement('label');label.textContent=T.show+' ';\
var select=document.createElement('select');\
var all=document.createElement('option');all.value='';all.textContent=T.all;select.appendChild(all);\
T.players.forEach(function(name,i){var o=document.createElement('option');o.value=i;o.textContent=name;select.appendChild(o);});\
select.addEventListener('change',function(){var v=select.value;\
Array.prototype.forEach.call(games,function(g){g.hidden=v!==''&&g.dataset.p.split(' ').indexOf(v)<0;});});\
label.appendChild(select);filter.appendChild(label);}\
function make(tag,cls){var e=document.createElement(tag);if(cls){e.className=cls;}return e;}\
function board(game){\
var moves=JSON.parse(game.querySelector('.m').textContent);\
var f=game.querySelector('.f');var five=f?JSON.parse(f.textContent):[];\
var viewer=make('div','viewer');var grid=make('div','board');grid.setAttribute('role','img');\
var cells=[];\
for(var r=-1;r<S;r++){for(var c=-1;c<S;c++){var cell=make('i');\
if(r<0||c<0){cell.className='l';cell.textContent=r<0&&c<0?'':String(r<0?c:r);cell.setAttribute('aria-hidden','true');}\
else{cells.push(cell);}grid.appendChild(cell);}}\
var bar=make('div','controls');\
function button(label,text,to){var b=make('button');b.type='button';b.textContent=text;\
b.title=label;b.setAttribute('aria-label',label);b.addEventListener('click',function(){show(to());});\
bar.appendChild(b);return b;}\
var at=moves.length;\
var first=button(T.first,'«',function(){return 0;});\
var previous=button(T.previous,'‹',function(){return at-1;});\
var range=make('input');range.type='range';range.min=0;range.max=moves.length;range.step=1;\
range.setAttribute('aria-label',T.step);range.addEventListener('input',function(){show(+range.value);});\
bar.appendChild(range);\
var next=button(T.next,'›',function(){return at+1;});\
var last=button(T.last,'»',function(){return moves.length;});\
var out=make('output');out.setAttribute('aria-live','polite');bar.appendChild(out);\
function show(k){at=Math.max(0,Math.min(moves.length,k));\
cells.forEach(function(cell){cell.className='';});\
for(var i=0;i<at;i++){cells[moves[i][0]*S+moves[i][1]].className=i%2?'o':'x';}\
var text=T.start;\
if(at>0){var p=moves[at-1];cells[p[0]*S+p[1]].className+=' last';\
text=T.move+' '+at+T.moveEnd+' '+T.of+' '+moves.length+': '+(at%2?'X':'O')+' '+p[0]+' '+p[1];}\
if(at===moves.length&&five.length){five.forEach(function(q){cells[q[0]*S+q[1]].className+=' five';});text+=' ('+T.five+')';}\
range.value=at;out.textContent=text;grid.setAttribute('aria-label',T.board+' '+text);\
first.disabled=previous.disabled=at===0;next.disabled=last.disabled=at===moves.length;\
document.body.setAttribute('data-board',game.id+' '+at+'/'+moves.length+', stones '+grid.querySelectorAll('.x,.o').length+\
', five '+grid.querySelectorAll('.five').length);}\
viewer.appendChild(grid);viewer.appendChild(bar);\
game.insertBefore(viewer,game.querySelector('.m'));show(moves.length);}\
function open(game){if(game.open&&!game.querySelector('.viewer')&&game.querySelector('.m')){board(game);}}\
document.addEventListener('toggle',function(event){if(event.target.classList&&event.target.classList.contains('game')){open(event.target);}},true);\
function fromAddress(){var id=location.hash.slice(1);var game=id&&document.getElementById(id);\
if(game&&game.classList.contains('game')){game.hidden=false;game.open=true;open(game);}}\
fromAddress();window.addEventListener('hashchange',fromAddress);\
var tables=document.querySelectorAll('table.standings,table.cross');\
var drawn=Array.prototype.every.call(tables,function(t){var box=t.getBoundingClientRect();return box.width>0&&box.height>0;});\
if(drawn&&tables.length===2){document.body.setAttribute('data-rendered','standings '+\
document.querySelectorAll('table.standings tbody tr').length+', crosstable '+\
document.querySelectorAll('table.cross td[title]').length+', games '+games.length);}\
})();";

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
                    games.push(game(games.len(), first, second, winner, moves));
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
                })
                .collect(),
            rounds: 1,
            seed: 7,
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

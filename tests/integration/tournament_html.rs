//! The tournament's page (`clings tournament --html`): a real small tournament of the
//! shipped course (two course bots and a student), its page drawn again by `--merge`, and
//! opened in a real browser (headless Chromium) on one of its games.

use crate::common;

use common::*;

/// A student whose directory name is markup: the page must show it as text.
const MARKUP_STUDENT: &str = "<b>eve&";

/// The shipped course, a class of two (`ana` and [`MARKUP_STUDENT`], both with the
/// course's solution as their `ai.c`), and their tournament against the `random` and
/// `strong` bots, written to `t/` and `page.html`.
fn tournament() -> tempfile::TempDir {
    let course = copy_course(&repo());
    let root = course.path();
    for student in ["ana", MARKUP_STUDENT] {
        let dir = root.join("class").join(student).join("exercises");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(repo().join("solutions/ai.c"), dir.join("ai.c")).unwrap();
    }
    let output = clings(root)
        .args(["tournament", "class", "--bot", "random", "--bot", "strong"])
        .args(["--out", "t", "--html", "page.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let said = stdout_of(&output);
    assert!(
        said.contains("drew the tournament's page (4 players, 12 games) into page.html"),
        "{said}"
    );
    course
}

#[test]
fn the_page_shows_standings_crosstable_and_every_game_escaped_and_merge_draws_it_again() {
    let course = tournament();
    let root = course.path();
    let page = std::fs::read_to_string(root.join("page.html")).unwrap();
    for section in ["standings", "crosstable", "games"] {
        assert!(
            page.contains(&format!("<section id=\"{section}\">")),
            "{section}"
        );
    }
    assert_eq!(page.matches("<details class=\"game\"").count(), 12);
    // The strong bot wins all its games: first, 6 points, 2/2 against everyone.
    assert!(
        page.contains("<tr><td>1</td><th scope=\"row\">bot strong</th><td>6</td><td>6</td>"),
        "{page}"
    );
    assert_eq!(
        page.matches("<td class=\"s4\" title=\"bot strong – ")
            .count(),
        3
    );
    // Every game that ended with a five has its moves and its five as text.
    assert!(page.contains("<p class=\"m\">[["));
    assert!(page.contains("<span class=\"f\">[["));
    assert!(page.contains("&lt;b&gt;eve&amp;"));
    assert!(!page.contains("<b>eve"), "a student's name is markup");
    assert_eq!(page.matches("<script").count(), 1, "the page's own script");
    assert!(!page.contains("http://") && !page.contains("https://") && !page.contains(" src="));

    // The page is drawn from tournament.json alone: `--merge` draws the same page.
    let output = clings(root)
        .args([
            "tournament",
            "--merge",
            "t/tournament.json",
            "--out",
            "merged",
        ])
        .args(["--html", "merged.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let merged = std::fs::read_to_string(root.join("merged.html")).unwrap();
    assert!(merged == page, "the merged tournament's page differs");

    // Whatever tournament.json says, its texts are text on the page: drawn from copies with
    // every name, reason and a forfeit's why crafted, and with them plain, the page has
    // the same elements and attributes, and its script reads the names as they are.
    let draw = |name: &str, text: &dyn Fn(&str) -> String| -> String {
        redrawn(root, name, &|document| {
            // A player who forfeits plays no move: its games say so, or --merge refuses them.
            let forfeiting = document["players"][1]["name"].clone();
            for game in document["games"].as_array_mut().unwrap() {
                for (side, other) in [("x", "O"), ("o", "X")] {
                    if game[side] == forfeiting {
                        game["winner"] = other.into();
                        game["moves"] = serde_json::json!([]);
                        game["five"] = serde_json::json!([]);
                    }
                }
            }
            for player in document["players"].as_array_mut().unwrap() {
                player["name"] = text(player["name"].as_str().unwrap()).into();
            }
            document["players"][1]["forfeits"] = text("cannot build").into();
            for game in document["games"].as_array_mut().unwrap() {
                for key in ["x", "o", "reason"] {
                    game[key] = text(game[key].as_str().unwrap()).into();
                }
            }
        })
    };
    let plain = markup(&draw("plain", &|text| text.to_string()));
    let page = draw("crafted", &|text| format!("{text}{MARKUP}"));
    let crafted = markup(&page);
    assert_eq!(crafted.structure(), plain.structure(), "{page}");
    assert_eq!(crafted.comments, 0, "{page}");
    for shown in ["ana", "bot strong", "cannot build", "X made five"] {
        let text = format!("{shown}{MARKUP}");
        assert!(
            crafted.text.contains(&text),
            "{shown} is not shown as text: {page}"
        );
    }
    let names = &crafted.script[crafted.script.find("var T=").expect("the names") + 6..];
    let mut json = serde_json::Deserializer::from_str(names).into_iter::<serde_json::Value>();
    let labels = json.next().unwrap().unwrap();
    let raw = &names[..json.byte_offset()];
    assert!(!raw.contains(['<', '>', '&']), "{raw}");
    let players = labels["players"].as_array().unwrap();
    assert!(players.contains(&format!("ana{MARKUP}").into()), "{raw}");
}

/// The page `tournament --merge` draws from a copy of `root`'s t/tournament.json changed by
/// `edit`, written to `root/NAME.json` (merged into `root/NAME/`, drawn into
/// `root/NAME.html`).
fn redrawn(root: &std::path::Path, name: &str, edit: &dyn Fn(&mut serde_json::Value)) -> String {
    let json = std::fs::read_to_string(root.join("t/tournament.json")).unwrap();
    let mut document: serde_json::Value = serde_json::from_str(&json).unwrap();
    edit(&mut document);
    let file = format!("{name}.json");
    std::fs::write(root.join(&file), document.to_string()).unwrap();
    let html = format!("{name}.html");
    let output = clings(root)
        .args([
            "tournament",
            "--merge",
            &file,
            "--out",
            name,
            "--html",
            &html,
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    std::fs::read_to_string(root.join(html)).unwrap()
}

/// Names as long as a folder's can be (60 characters), or in Chinese, widen the tables
/// but never shift a column: measured in a real browser, each row of the standings, the
/// crosstable and the list of games has its cells where the first row has them, on one
/// line, and the names in the tables' first column are whole (issue 30).
#[test]
fn the_tables_stay_aligned_with_long_and_chinese_names() {
    let Some(chromium) = chromium("the tournament's page") else {
        return;
    };
    let course = tournament();
    let root = course.path();
    let long = "a-student-whose-folder-name-runs-to-sixty-characters-exactly";
    assert_eq!(long.len(), 60);
    let chinese = "王小明同学的五子棋程序";
    let rename = |name: &str| match name {
        "ana" => long.to_string(),
        MARKUP_STUDENT => chinese.to_string(),
        name => name.to_string(),
    };
    let page = redrawn(root, "renamed", &|document| {
        for player in document["players"].as_array_mut().unwrap() {
            player["name"] = rename(player["name"].as_str().unwrap()).into();
        }
        for game in document["games"].as_array_mut().unwrap() {
            for key in ["x", "o"] {
                game[key] = rename(game[key].as_str().unwrap()).into();
            }
        }
    });
    assert!(page.contains(long) && page.contains(chinese));
    // The page measured by a script of the test's, after the page's own.
    let measured = page.replace("</body>", &format!("<script>{MEASURE}</script></body>"));
    let file = root.join("measured.html");
    std::fs::write(&file, measured).unwrap();
    let dom = open_in_chromium(
        &chromium,
        &root.join("profile"),
        &file,
        &["--dump-dom", "--window-size=1280,3000"],
    );
    let (dom_text, log) = (stdout_of(&dom), stderr_of(&dom));
    assert!(
        dom_text.contains("data-aligned=\"standings 5 rows, crosstable 5 rows, games 13 rows\""),
        "{}\n{log}",
        dom_text
            .lines()
            .find(|line| line.contains("<body"))
            .unwrap_or(&dom_text)
    );
}

/// Sets the body's `data-aligned` to the rows it measured in each table, or to the first
/// row whose cells are not where the first row's are (or that wraps, or that cuts a name).
const MEASURE: &str = r#"(function(){
function lefts(row){return Array.prototype.map.call(row.children,function(cell){return Math.round(cell.getBoundingClientRect().left);}).join(' ');}
var found=[],wrong=null;
[['standings','table.standings tr'],['crosstable','table.cross tr'],['games','.gh, details.game>summary']].forEach(function(table){
var rows=document.querySelectorAll(table[1]),first=lefts(rows[0]),height=rows[rows.length-1].getBoundingClientRect().height;
Array.prototype.forEach.call(rows,function(row,i){
if(wrong){return;}
if(lefts(row)!==first){wrong=table[0]+' row '+i+' has its cells at '+lefts(row)+', the first row at '+first;}
else if(i>0&&Math.abs(row.getBoundingClientRect().height-height)>1){wrong=table[0]+' row '+i+' is '+row.getBoundingClientRect().height+' px high, not '+height;}
var name=row.querySelector('th[scope=row]');
if(!wrong&&name&&name.scrollWidth>name.clientWidth){wrong=table[0]+' row '+i+' cuts its name: '+name.textContent;}});
found.push(table[0]+' '+rows.length+' rows');});
document.body.setAttribute('data-aligned',wrong||found.join(', '));})();"#;

#[test]
fn the_page_renders_in_a_real_browser_and_replays_a_game() {
    let Some(chromium) = chromium("the tournament's page") else {
        return;
    };
    let course = tournament();
    let root = course.path();
    let page = root.join("page.html");
    let profile = root.join("profile");
    // Game 3: the first student (X) against the random bot, won with a five.
    let game = "g3";
    let url = format!("file://{}#{game}", page.display());

    let screenshot = root.join("page.png");
    let shot = open_url_in_chromium(
        &chromium,
        &profile,
        &url,
        &[
            &format!("--screenshot={}", screenshot.display()),
            "--window-size=1280,1800",
        ],
    );
    let png = std::fs::read(&screenshot)
        .unwrap_or_else(|err| panic!("no screenshot ({err}): {}", stderr_of(&shot)));
    assert_eq!(png_size(&png), (1280, 1800));
    // A blank page of that size is under 10 KB; tables, a board and text are not.
    assert!(
        png.len() > 40_000,
        "a blank screenshot? {} bytes",
        png.len()
    );
    let shot_log = stderr_of(&shot);
    let console = console_messages(&shot_log);
    assert!(
        console.is_empty(),
        "the page wrote to the console: {console:#?}"
    );

    let dom = open_url_in_chromium(&chromium, &profile, &url, &["--dump-dom"]);
    let (dom_text, log) = (stdout_of(&dom), stderr_of(&dom));
    let body = &dom_text[dom_text.find("<body").expect("a body")..];
    let body = &body[..body.find('>').unwrap()];
    // The script marks the body once the tables have a size: 4 players, 12 cells.
    assert!(
        body.contains("data-rendered=\"standings 4, crosstable 12, games 12\""),
        "{body}\n{log}"
    );
    // The game named in the address is open, its board drawn at its last move: as many
    // stones as moves, and the five.
    let moves = {
        let text = std::fs::read_to_string(root.join("t/games/0003.txt")).unwrap();
        text.lines().count()
    };
    assert!(
        body.contains(&format!(
            "data-board=\"{game} {moves}/{moves}, stones {moves}, five 5\""
        )),
        "{body}"
    );
    assert_eq!(
        dom_text.matches("<div class=\"board\"").count(),
        1,
        "only the game opened has a board"
    );
    for step in ["first move", "previous move", "next move", "last move"] {
        assert!(
            dom_text.contains(&format!("aria-label=\"{step}\"")),
            "{step}"
        );
    }
    assert!(dom_text.contains("<input type=\"range\""), "the slider");
    let console = console_messages(&log);
    assert!(
        console.is_empty(),
        "the page wrote to the console: {console:#?}"
    );
}

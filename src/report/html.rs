//! The class report a teacher looks at: one self-contained HTML page drawn from a
//! gradebook alone (no network, no file beside it: it opens from a USB stick and prints).
//! It shows how the scores spread, a students x cases heat map, the cases the most
//! students fail with their hints and how they fail, who fails how, and each student's
//! failures. Every text from the gradebook is escaped here: messages and diffs quote the
//! students' programs. Hidden cases show their name, verdict and hint, as in every
//! report; the gradebook holds nothing more of them.

use std::fmt::Write;

use crate::grade::document::ExerciseReport;
use crate::report::class::{Cell, Class, Student};
use crate::report::markup::escape;
use crate::report::svg::{self, Bar, Segment};
use crate::store::gradebook::Gradebook;
use crate::util::i18n::Lang;
use crate::verdict::{Status, Verdict};

/// Students named after a kind of failure before the rest are counted.
const NAMES_PER_KIND: usize = 40;

/// How a cell is drawn: a colour of the Okabe–Ito palette (told apart by colour-blind
/// readers), and a letter on it, so no one has to tell colours apart at all.
struct Look {
    /// The class of its legend key and heat map cell (a passed cell leaves it out: the
    /// most common cell is the shortest).
    class: &'static str,
    fill: &'static str,
    ink: &'static str,
    symbol: &'static str,
    en: &'static str,
    zh: &'static str,
}

/// Every cell a student can get, in the legend's order.
const CELLS: [Cell; 12] = [
    Cell::Verdict(Verdict::Passed),
    Cell::Verdict(Verdict::WrongOutput),
    Cell::Verdict(Verdict::Timeout),
    Cell::Verdict(Verdict::OutputLimit),
    Cell::Verdict(Verdict::MemoryLimit),
    Cell::Verdict(Verdict::Crashed),
    Cell::Verdict(Verdict::NonzeroExit),
    Cell::Verdict(Verdict::Sanitizer),
    Cell::Verdict(Verdict::CompileError),
    Cell::Verdict(Verdict::NotRun),
    Cell::Missing,
    Cell::Absent,
];

fn look(cell: Cell) -> Look {
    let (class, fill, ink, symbol, en, zh) = match cell {
        Cell::Verdict(Verdict::Passed) => ("p", "#009E73", "#fff", "", "passed", "通过"),
        Cell::Verdict(Verdict::WrongOutput) => {
            ("w", "#D55E00", "#000", "W", "wrong output", "输出错误")
        }
        Cell::Verdict(Verdict::Timeout) => ("t", "#56B4E9", "#000", "T", "timeout", "超时"),
        Cell::Verdict(Verdict::OutputLimit) => {
            ("o", "#0072B2", "#fff", "O", "output limit", "输出超限")
        }
        Cell::Verdict(Verdict::MemoryLimit) => {
            ("m", "#0072B2", "#fff", "M", "memory limit", "内存超限")
        }
        Cell::Verdict(Verdict::Crashed) => ("c", "#CC79A7", "#000", "C", "crashed", "崩溃"),
        Cell::Verdict(Verdict::NonzeroExit) => {
            ("n", "#F0E442", "#000", "N", "nonzero exit", "非零退出码")
        }
        Cell::Verdict(Verdict::Sanitizer) => {
            ("s", "#E69F00", "#000", "S", "sanitizer", "运行时检查报错")
        }
        Cell::Verdict(Verdict::CompileError) => {
            ("e", "#000000", "#fff", "E", "compile error", "编译错误")
        }
        Cell::Verdict(Verdict::NotRun) => ("r", "#999999", "#000", "·", "not run", "未运行"),
        Cell::Missing => ("x", "#dddddd", "#000", "–", "file missing", "文件缺失"),
        Cell::Absent => ("a", "#ffffff", "#000", "", "no result", "无结果"),
    };
    Look {
        class,
        fill,
        ink,
        symbol,
        en,
        zh,
    }
}

impl Look {
    fn label(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.zh)
    }
}

/// The whole page, in `lang` (the gradebook's own texts are in the language it was
/// graded in).
pub fn page(book: &Gradebook, lang: Lang) -> String {
    let class = Class::of(book);
    let mut html = String::new();
    let title = lang.pick("Class report", "班级报告");
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{}{}{}</style></head><body>\n",
        lang.pick("en", "zh"),
        BASE_STYLE,
        STYLE,
        cell_style()
    );
    let _ = writeln!(html, "<h1>{title}</h1>");
    summary(&mut html, &class, lang);
    let _ = writeln!(
        html,
        "<nav><a href=\"#scores\">{}</a> · <a href=\"#heatmap\">{}</a> · <a href=\"#cases\">{}</a> · \
         <a href=\"#kinds\">{}</a> · <a href=\"#students\">{}</a></nav>",
        lang.pick("Scores", "分数分布"),
        lang.pick("Heat map", "热力图"),
        lang.pick("Cases most failed", "失败最多的用例"),
        lang.pick("Failures by kind", "按失败类型"),
        lang.pick("Students", "学生详情"),
    );
    // The overview first (how scores spread, who is stuck where), then the details.
    scores(&mut html, &class, lang);
    heat_map(&mut html, &class, lang);
    most_failed(&mut html, &class, lang);
    kinds(&mut html, &class, lang);
    students(&mut html, &class, lang);
    let _ = write!(html, "<script>{SCRIPT}</script>\n</body></html>\n");
    html
}

fn summary(html: &mut String, class: &Class, lang: Lang) {
    let graded = class.students.len();
    let mut totals: Vec<u32> = class.students.iter().map(|s| s.results.points).collect();
    totals.sort_unstable();
    let max = class.students.first().map_or(0, |s| s.results.max_points);
    let median = match graded {
        0 => 0.0,
        n if n % 2 == 1 => f64::from(totals[n / 2]),
        n => f64::from(totals[n / 2 - 1] + totals[n / 2]) / 2.0,
    };
    let mean = totals.iter().map(|&t| f64::from(t)).sum::<f64>() / graded.max(1) as f64;
    let full = totals.iter().filter(|&&t| t == max && max > 0).count();
    let _ = writeln!(
        html,
        "<p class=\"summary\">{}</p>",
        lang.pick(
            format!(
                "{graded} students graded on {} cases. Total out of {max}: mean {mean:.1}, \
                 median {median:.1}; {full} with full marks.",
                class.columns.len()
            ),
            format!(
                "共评分 {graded} 名学生，{} 个用例。总分满分 {max}：平均 {mean:.1}，\
                 中位数 {median:.1}；满分 {full} 人。",
                class.columns.len()
            ),
        )
    );
    if !class.errors.is_empty() {
        let _ = writeln!(
            html,
            "<div class=\"errors\"><h2>{}</h2><ul>",
            lang.pick(
                "Submissions not graded (refused, or the grader failed)",
                "未评分的提交（被拒绝，或评分器出错）"
            )
        );
        for (name, error) in &class.errors {
            let _ = writeln!(
                html,
                "<li><b>{}</b>: <code>{}</code></li>",
                escape(name),
                escape(error)
            );
        }
        html.push_str("</ul></div>\n");
    }
}

fn scores(html: &mut String, class: &Class, lang: Lang) {
    let _ = writeln!(
        html,
        "<section id=\"scores\"><h2>{}</h2><div class=\"charts\">",
        lang.pick("Scores", "分数分布")
    );
    let (unit, counted) = lang.pick(("points", "students"), ("分", "名学生"));
    for (index, scores) in class.distributions().iter().enumerate() {
        let name = match scores.name {
            "" => lang.pick("Total", "总分").to_string(),
            name if name == scores.title => name.to_string(),
            name => format!("{name} — {}", scores.title),
        };
        let title = lang.pick(
            format!("{name}: students per score, out of {}", scores.max),
            format!("{name}：各分数段人数，满分 {}", scores.max),
        );
        let bars: Vec<Bar> = scores
            .bins()
            .into_iter()
            .map(|bin| Bar {
                label: match bin.low == bin.high {
                    true => bin.low.to_string(),
                    false => format!("{}–{}", bin.low, bin.high),
                },
                tick: bin.low.to_string(),
                count: bin.students,
            })
            .collect();
        let _ = writeln!(
            html,
            "<figure>{}<figcaption>{}</figcaption></figure>",
            svg::histogram(&format!("h{index}"), &title, &bars, unit, counted),
            escape(&title)
        );
    }
    html.push_str("</div></section>\n");
}

/// `check_win / 09_black_anti_diagonal (hidden)`.
fn case_name(class: &Class, column: usize, lang: Lang) -> String {
    let column = &class.columns[column];
    let hidden = match column.hidden {
        true => lang.pick(" (hidden)", "（隐藏）"),
        false => "",
    };
    format!("{} / {}{hidden}", column.exercise, column.case)
}

fn most_failed(html: &mut String, class: &Class, lang: Lang) {
    let tallies = class.most_failed();
    let _ = writeln!(
        html,
        "<section id=\"cases\"><h2>{}</h2><p>{}</p><ol class=\"cases\">",
        lang.pick("Cases most failed", "失败最多的用例"),
        lang.pick(
            format!(
                "The cases that students' programs ran and failed, the most failed first: \
                 the misconceptions of this class. {} of {} cases were failed by nobody.",
                class.columns.len() - tallies.len(),
                class.columns.len()
            ),
            format!(
                "学生程序运行后未通过的用例，按失败人数从多到少：这个班最常见的误解。\
                 {} 个用例中有 {} 个无人失败。",
                class.columns.len(),
                class.columns.len() - tallies.len()
            ),
        )
    );
    for tally in &tallies {
        let name = case_name(class, tally.column, lang);
        let failed = lang.pick(
            format!(
                "failed by {} of {} students",
                tally.failed,
                class.students.len()
            ),
            format!("{} / {} 名学生未通过", tally.failed, class.students.len()),
        );
        let looks: Vec<(Look, usize)> = CELLS
            .iter()
            .filter_map(|cell| Some((look(*cell), *tally.mix.get(cell)?)))
            .collect();
        let segments: Vec<Segment> = looks
            .iter()
            .map(|(look, count)| Segment {
                count: *count,
                fill: look.fill,
                ink: look.ink,
                symbol: look.symbol,
                label: look.label(lang),
            })
            .collect();
        let mix: Vec<String> = looks
            .iter()
            .map(|(look, count)| format!("{} {count}", look.label(lang)))
            .collect();
        let _ = write!(
            html,
            "<li><h3>{} <small>{failed}</small></h3><div class=\"mixline\">{}<span>{}</span></div>",
            escape(&name),
            svg::stacked_bar(&format!("{name}: {}", mix.join(", ")), &segments),
            escape(&mix.join(" · "))
        );
        if let Some(description) = class.columns[tally.column].description {
            let _ = write!(html, "<p class=\"description\">{}</p>", escape(description));
        }
        for (hint, count) in &tally.hints {
            let _ = write!(
                html,
                "<p class=\"hint\"><b>{}</b> {} <small>{}</small></p>",
                lang.pick("hint:", "提示："),
                escape(hint),
                lang.pick(format!("(shown to {count})"), format!("（{count} 人看到）"))
            );
        }
        html.push_str("</li>\n");
    }
    html.push_str("</ol></section>\n");
}

/// For each way of failing, the students who failed a case that way: who crashes, who
/// loops, who does not compile.
fn kinds(html: &mut String, class: &Class, lang: Lang) {
    let _ = writeln!(
        html,
        "<section id=\"kinds\"><h2>{}</h2><table class=\"kinds\">",
        lang.pick("Failures by kind", "按失败类型")
    );
    for cell in CELLS
        .iter()
        .filter(|cell| !matches!(cell, Cell::Verdict(Verdict::Passed) | Cell::Absent))
    {
        let who: Vec<(usize, &Student)> = class
            .students
            .iter()
            .enumerate()
            .filter(|(_, student)| student.cells.contains(cell))
            .collect();
        if who.is_empty() {
            continue;
        }
        let look = look(*cell);
        let mut names: Vec<String> = who
            .iter()
            .take(NAMES_PER_KIND)
            .map(|(index, student)| format!("<a href=\"#s{index}\">{}</a>", escape(student.name)))
            .collect();
        if who.len() > NAMES_PER_KIND {
            let rest = who.len() - NAMES_PER_KIND;
            names.push(lang.pick(format!("and {rest} more"), format!("等另外 {rest} 人")));
        }
        let _ = writeln!(
            html,
            "<tr><th><span class=\"key {}\"></span> {}</th><td>{}</td><td>{}</td></tr>",
            look.class,
            look.label(lang),
            who.len(),
            names.join(", ")
        );
    }
    html.push_str("</table></section>\n");
}

/// The heat map's cell width, in pixels, and that of its two first columns.
const CELL_PX: usize = 11;
const NAME_PX: usize = 130;
const TOTAL_PX: usize = 48;

/// A grid of rows rather than a table: each row is laid out (and drawn) only when it
/// comes into view (`content-visibility`), which tables do not allow, so a class of 1,000
/// opens as fast as one of 40.
fn heat_map(html: &mut String, class: &Class, lang: Lang) {
    let _ = writeln!(
        html,
        "<section id=\"heatmap\"><h2>{}</h2><p>{}</p><p class=\"sort\">{} \
         <button type=\"button\" data-sort=\"score\">{}</button> \
         <button type=\"button\" data-sort=\"name\">{}</button></p>",
        lang.pick("Heat map: students x cases", "热力图：学生 x 用例"),
        lang.pick(
            "A row per student, a column per case; the case is named on hover, and the \
             same verdicts are listed under each student's name below.",
            "每行一名学生，每列一个用例；鼠标悬停显示用例名称，下方每名学生的详情中列出同样的结果。"
        ),
        lang.pick("Sort by", "排序："),
        lang.pick("score", "分数"),
        lang.pick("name", "姓名"),
    );
    html.push_str("<ul class=\"legend\">");
    for cell in CELLS {
        let look = look(cell);
        let _ = write!(
            html,
            "<li><span class=\"key {}\"></span> {}</li>",
            look.class,
            look.label(lang)
        );
    }
    let width = NAME_PX + TOTAL_PX + CELL_PX * class.columns.len();
    let _ = write!(
        html,
        "</ul>\n<div class=\"heatwrap\"><div id=\"heat\" style=\"width:{width}px\">\
         <div class=\"r head\"><span></span><b></b>"
    );
    // A heading per exercise over its cases, then the cases numbered within it.
    let mut index = 0;
    while index < class.columns.len() {
        let exercise = class.columns[index].exercise;
        let span = class.columns[index..]
            .iter()
            .take_while(|column| column.exercise == exercise)
            .count();
        let _ = write!(
            html,
            "<span class=\"exercise\" style=\"width:{}px\" title=\"{1}\">{1}</span>",
            span * CELL_PX,
            escape(exercise)
        );
        index += span;
    }
    let _ = write!(
        html,
        "</div><div class=\"r head\" id=\"cases-row\"><span>{}</span><b>{}</b>",
        lang.pick("student", "学生"),
        lang.pick("total", "总分")
    );
    let mut number = 0;
    for (index, column) in class.columns.iter().enumerate() {
        number = match index > 0 && class.columns[index - 1].exercise == column.exercise {
            true => number + 1,
            false => 1,
        };
        let _ = write!(
            html,
            "<i title=\"{}\"{}>{number}</i>",
            escape(&case_name(class, index, lang)),
            if column.hidden {
                " class=\"hidden\""
            } else {
                ""
            }
        );
    }
    html.push_str("</div><div class=\"rows\">\n");
    for (index, student) in class.students.iter().enumerate() {
        let _ = write!(
            html,
            "<div class=\"r\" data-score=\"{}\"><a href=\"#s{index}\">{}</a><b>{}/{}</b>",
            student.results.points,
            escape(student.name),
            student.results.points,
            student.results.max_points
        );
        for cell in &student.cells {
            match cell {
                Cell::Verdict(Verdict::Passed) => html.push_str("<i></i>"),
                cell => {
                    let _ = write!(html, "<i class={}></i>", look(*cell).class);
                }
            }
        }
        html.push_str("</div>\n");
    }
    html.push_str("</div></div></div></section>\n");
}

fn students(html: &mut String, class: &Class, lang: Lang) {
    let _ = writeln!(
        html,
        "<section id=\"students\"><h2>{}</h2>",
        lang.pick("Students", "学生详情")
    );
    for (index, student) in class.students.iter().enumerate() {
        let _ = write!(
            html,
            "<article class=\"student\" id=\"s{index}\"><h3>{} <small>{}/{}</small> \
             <a href=\"#heatmap\" class=\"up\">{}</a></h3><ul>",
            escape(student.name),
            student.results.points,
            student.results.max_points,
            lang.pick("heat map", "热力图")
        );
        for exercise in &student.results.exercises {
            exercise_details(html, exercise, lang);
        }
        html.push_str("</ul></article>\n");
    }
    html.push_str("</section>\n");
}

/// An exercise's line in a student's details: its points, and what failed (a hidden case
/// shows its verdict only), then its first diff.
fn exercise_details(html: &mut String, exercise: &ExerciseReport, lang: Lang) {
    let status = match exercise.status.as_str() {
        status if status == Status::Passed.as_str() => lang.pick("passed", "通过"),
        status if status == Status::CompileError.as_str() => {
            lang.pick("does not compile", "无法编译")
        }
        status if status == Status::Missing.as_str() => lang.pick("file missing", "文件缺失"),
        _ => lang.pick("failed", "未通过"),
    };
    let _ = write!(
        html,
        "<li><b>{}</b> {}/{} {status}",
        escape(&exercise.name),
        exercise.points,
        exercise.max_points
    );
    if exercise.status != Status::Failed.as_str() {
        html.push_str("</li>");
        return;
    }
    html.push_str("<ul>");
    let mut not_run = 0;
    for case in &exercise.cases {
        let Some(verdict) = Verdict::from_word(&case.verdict) else {
            continue;
        };
        match verdict {
            Verdict::Passed => continue,
            Verdict::NotRun => {
                not_run += 1;
                continue;
            }
            _ => {}
        }
        let look = look(Cell::Verdict(verdict));
        let _ = write!(
            html,
            "<li><code>{}</code> <span class=\"key {}\"></span> {}",
            escape(&case.name),
            look.class,
            look.label(lang)
        );
        if case.hidden {
            let _ = write!(html, " {}</li>", lang.pick("(hidden)", "（隐藏）"));
            continue;
        }
        let _ = write!(html, ": {}", escape(&case.message));
        if let Some(hint) = &case.hint {
            let _ = write!(
                html,
                "<div class=\"hint\"><b>{}</b> {}</div>",
                lang.pick("hint:", "提示："),
                escape(hint)
            );
        }
        if let Some(diff) = &case.diff {
            let _ = write!(html, "<pre class=\"diff\">{}</pre>", escape(diff));
        }
        html.push_str("</li>");
    }
    if not_run > 0 {
        let _ = write!(
            html,
            "<li>{}</li>",
            lang.pick(
                format!("{not_run} more not run: the program loops"),
                format!("另有 {not_run} 个未运行：程序陷入死循环"),
            )
        );
    }
    html.push_str("</ul></li>");
}

/// The heat map's columns, its cells and the legend's keys: a colour and a letter per kind
/// of cell.
fn cell_style() -> String {
    let mut css = format!(
        "#heat .r>a,#heat .r>span:first-child{{flex:0 0 {NAME_PX}px}}\
         #heat .r>b{{flex:0 0 {TOTAL_PX}px}}#heat i{{flex:0 0 {}px}}",
        CELL_PX - 1
    );
    for cell in CELLS {
        let look = look(cell);
        let selector = match cell {
            Cell::Verdict(Verdict::Passed) => ".rows i,.key.p".to_string(),
            _ => format!(".rows i.{0},.key.{0}", look.class),
        };
        let _ = write!(
            css,
            "{selector}{{background:{};color:{}}}",
            look.fill, look.ink
        );
        if !look.symbol.is_empty() {
            let after = selector.replace(',', "::after,") + "::after";
            let _ = write!(css, "{after}{{content:\"{}\"}}", look.symbol);
        }
    }
    css
}

/// The look every page of clings shares (this one, the tournament's): the fonts (Chinese
/// ones too), the headings, the table of contents.
pub const BASE_STYLE: &str = "\
body{font-family:system-ui,'Noto Sans CJK SC','PingFang SC',sans-serif;margin:1.5em;color:#111;max-width:1400px}\
h1{margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}\
nav{margin:.5em 0 1em}nav a{margin:0 .2em}\
";

const STYLE: &str = "\
.charts{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}figcaption{font-size:.8em;max-width:300px}\
svg .axis{font-size:8px;fill:#333}svg .count{font-size:8px;fill:#111}svg .symbol{font-size:10px;font-weight:bold}\
ol.cases>li{margin-bottom:1em}ol.cases h3{font-size:1em;margin:.2em 0}ol.cases small{font-weight:normal;color:#444}\
.mixline{display:flex;gap:.6em;align-items:center;font-size:.85em}\
.description{font-style:italic;margin:.2em 0}.hint{margin:.2em 0}\
table.kinds th{text-align:left;white-space:nowrap;vertical-align:top;padding-right:1em}table.kinds td{vertical-align:top;padding-right:1em}\
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.3em 1.2em;font-size:.85em}\
.key{display:inline-block;width:1.3em;height:1.3em;text-align:center;line-height:1.3em;font-size:.8em;font-weight:bold;border:1px solid #999;vertical-align:middle}\
.heatwrap{overflow-x:auto}\
#heat{font-size:9px;line-height:13px}\
#heat .r{display:flex;height:13px;margin-bottom:1px;white-space:nowrap}\
#heat .rows .r{content-visibility:auto;contain-intrinsic-size:auto 13px}\
#heat .r>a,#heat .r>span:first-child{overflow:hidden;text-overflow:ellipsis;font-size:11px}\
#heat .r>b{padding-right:4px;text-align:right;font-weight:normal;box-sizing:border-box}\
#heat i{min-width:0;overflow:hidden;margin-right:1px;text-align:center;font-style:normal;font-weight:bold}\
#heat .head i{font-size:7px;font-weight:normal}\
#heat .head i.hidden{font-style:italic;text-decoration:underline}\
#heat .exercise{flex:none;overflow:hidden;font-weight:bold;border-left:1px solid #999;padding-left:1px;box-sizing:border-box}\
.student{border-top:1px solid #eee;padding:.3em 0;content-visibility:auto;contain-intrinsic-size:auto 12em}.student h3{margin:.3em 0;font-size:1em}.student ul{margin:.2em 0}\
.up{font-size:.75em;font-weight:normal}\
pre.diff{background:#f6f6f6;padding:.4em;font-size:.85em;overflow-x:auto;white-space:pre}\
.errors{border:2px solid #D55E00;padding:.5em}\
@media print{nav,.sort,.up{display:none}body{margin:0;max-width:none}.heatwrap{overflow:visible}\
#heat i,.key,svg{print-color-adjust:exact;-webkit-print-color-adjust:exact}\
.student,ol.cases>li,figure{break-inside:avoid}pre.diff{white-space:pre-wrap}}\
";

/// Sorting the heat map, a cell's case and verdict on hover (the heading holds the case,
/// the legend the verdict), and a mark that says everything drew: the browser test reads
/// it.
const SCRIPT: &str = "\
(function(){\
var rows=document.querySelector('#heat .rows');\
var name=function(row){return row.firstChild.textContent;};\
var order={score:function(a,b){return b.dataset.score-a.dataset.score||name(a).localeCompare(name(b));},\
name:function(a,b){return name(a).localeCompare(name(b));}};\
document.querySelectorAll('button[data-sort]').forEach(function(button){\
button.addEventListener('click',function(){\
Array.prototype.slice.call(rows.children).sort(order[button.dataset.sort])\
.forEach(function(row){rows.appendChild(row);});});});\
var heads=document.getElementById('cases-row').children;\
var labels={};document.querySelectorAll('.legend li').forEach(function(item){\
labels[item.firstChild.className.replace('key','').trim()]=item.textContent.trim();});\
rows.addEventListener('mouseover',function(event){var cell=event.target;\
if(cell.tagName==='I'&&!cell.title){\
var at=Array.prototype.indexOf.call(cell.parentNode.children,cell);\
cell.title=heads[at].title+': '+labels[cell.className||'p'];}});\
var charts=document.querySelectorAll('svg.chart');\
var drawn=charts.length>0&&Array.prototype.every.call(charts,function(chart){\
var box=chart.getBoundingClientRect();return box.width>0&&box.height>0&&chart.querySelector('rect');});\
if(drawn){document.body.setAttribute('data-rendered','charts '+charts.length+', rows '+rows.children.length);}\
})();";
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_a_program_cannot_become_markup() {
        assert_eq!(
            escape("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
    }

    #[test]
    fn every_failure_has_its_own_letter() {
        let mut symbols: Vec<&str> = CELLS
            .iter()
            .map(|cell| look(*cell).symbol)
            .filter(|symbol| !symbol.is_empty())
            .collect();
        let count = symbols.len();
        symbols.sort_unstable();
        symbols.dedup();
        assert_eq!(symbols.len(), count, "two kinds share a letter");
        // Only a pass and a missing result go without one: the colour is never alone.
        assert_eq!(count, CELLS.len() - 2);
    }
}

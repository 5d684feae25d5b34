//! Small pieces of terminal text shared by several commands.

use crate::i18n::Lang;

const BAR_WIDTH: usize = 30;

/// `Progress: [#####---------] 1/3 exercises done (33%)`
pub fn progress_line(done: usize, total: usize, lang: Lang) -> String {
    let filled = (done * BAR_WIDTH).checked_div(total).unwrap_or(0);
    let percent = (done * 100).checked_div(total).unwrap_or(0);
    let bar = format!("[{}{}]", "#".repeat(filled), "-".repeat(BAR_WIDTH - filled));
    lang.pick(
        format!("Progress: {bar} {done}/{total} exercises done ({percent}%)"),
        format!("进度：{bar} 已完成 {done}/{total} 个练习（{percent}%）"),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn progress_line_counts() {
        let line = super::progress_line(1, 3, crate::i18n::Lang::En);
        assert!(line.contains("1/3") && line.contains("33%"), "{line}");
        assert!(
            line.contains(&format!("[{}{}]", "#".repeat(10), "-".repeat(20))),
            "{line}"
        );
    }
}

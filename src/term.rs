//! Small pieces of terminal text shared by several commands.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context, Result, bail};

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

/// Asks a yes/no question on the terminal; without one there is nobody to answer, so it
/// refuses and names the flag that confirms in advance.
pub fn confirm(question: &str, flag: &str) -> Result<bool> {
    if !std::io::stdin().is_terminal() {
        bail!("not on a terminal, so there is nobody to confirm: add {flag}");
    }
    print!("{question} [y/N] ");
    std::io::stdout()
        .flush()
        .context("cannot write to the terminal")?;
    let mut answer = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut answer)
        .context("cannot read the answer")?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
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

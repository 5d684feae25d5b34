//! Where a verdict is decided: from how the program ended and what it printed.

use crate::compare::CompareMode;
use crate::compile::SANITIZER_EXIT_CODE;
use crate::i18n::Lang;
use crate::sandbox::{Limits, Outcome, Stop, Termination};

/// One word per result, the same in every report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    WrongOutput,
    CompileError,
    Timeout,
    OutputLimit,
    Crashed,
    NonzeroExit,
    Sanitizer,
    NotRun,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::WrongOutput => "wrong_output",
            Verdict::CompileError => "compile_error",
            Verdict::Timeout => "timeout",
            Verdict::OutputLimit => "output_limit",
            Verdict::Crashed => "crashed",
            Verdict::NonzeroExit => "nonzero_exit",
            Verdict::Sanitizer => "sanitizer",
            Verdict::NotRun => "not_run",
        }
    }
}

/// A verdict with the facts its message is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    Passed,
    WrongOutput,
    /// The exercise did not compile, so this case never ran.
    NotRun,
    /// The exercise's file does not exist, so there was nothing to run.
    Missing,
    Timeout {
        limit_ms: u64,
        input_exhausted: bool,
    },
    OutputLimit {
        limit_bytes: usize,
        input_exhausted: bool,
    },
    Crashed {
        signal: i32,
    },
    NonzeroExit {
        code: i32,
    },
    /// The sanitizer's first report line, which names the file and line.
    Sanitizer {
        report: String,
    },
}

/// Decides in a fixed order: what clings had to stop, then how the program ended, and
/// only then whether its output was right.
pub fn judge(outcome: &Outcome, expected: &[u8], mode: CompareMode, limits: Limits) -> Finding {
    match outcome.stopped {
        Some(Stop::OutputLimit) => {
            return Finding::OutputLimit {
                limit_bytes: limits.output_bytes,
                input_exhausted: outcome.input_exhausted,
            };
        }
        Some(Stop::WallTime) => {
            return Finding::Timeout {
                limit_ms: limits.wall_time.as_millis() as u64,
                input_exhausted: outcome.input_exhausted,
            };
        }
        None => {}
    }
    match outcome.termination {
        Termination::Exited(SANITIZER_EXIT_CODE) if sanitizer_report(&outcome.stderr).is_some() => {
            Finding::Sanitizer {
                report: sanitizer_report(&outcome.stderr).unwrap_or_default(),
            }
        }
        Termination::Signaled(signal) => Finding::Crashed { signal },
        Termination::Exited(0) if mode.matches(expected, &outcome.stdout) => Finding::Passed,
        Termination::Exited(0) => Finding::WrongOutput,
        Termination::Exited(code) => Finding::NonzeroExit { code },
    }
}

/// The line of a sanitizer report that says what went wrong and where.
fn sanitizer_report(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let ubsan = text.lines().find(|line| line.contains("runtime error:"));
    // AddressSanitizer's summary line carries the file and line; its first line does not.
    let asan = || {
        text.lines()
            .find(|line| line.starts_with("SUMMARY: AddressSanitizer"))
    };
    ubsan.or_else(asan).map(|line| line.trim().to_string())
}

impl Finding {
    pub fn verdict(&self) -> Verdict {
        match self {
            Finding::Passed => Verdict::Passed,
            Finding::WrongOutput => Verdict::WrongOutput,
            Finding::NotRun | Finding::Missing => Verdict::NotRun,
            Finding::Timeout { .. } => Verdict::Timeout,
            Finding::OutputLimit { .. } => Verdict::OutputLimit,
            Finding::Crashed { .. } => Verdict::Crashed,
            Finding::NonzeroExit { .. } => Verdict::NonzeroExit,
            Finding::Sanitizer { .. } => Verdict::Sanitizer,
        }
    }

    /// One line for the student: what happened and the likely mistake behind it.
    pub fn message(&self, lang: Lang) -> String {
        const EOF_EN: &str =
            "scanf probably returned EOF and the loop never ended (check scanf's return value)";
        const EOF_ZH: &str = "scanf 很可能返回了 EOF，循环却没有结束（检查 scanf 的返回值）";
        match self {
            Finding::Passed => lang.pick("correct output", "输出正确").into(),
            Finding::WrongOutput => lang
                .pick(
                    "your output differs from the expected output",
                    "你的输出与期望输出不同",
                )
                .into(),
            Finding::NotRun => lang
                .pick(
                    "not run: the program did not compile",
                    "未运行：程序没有通过编译",
                )
                .into(),
            Finding::Missing => lang
                .pick(
                    "not run: the exercise file is missing",
                    "未运行：练习文件不存在",
                )
                .into(),
            Finding::Timeout {
                limit_ms,
                input_exhausted: true,
            } => {
                let secs = *limit_ms as f64 / 1000.0;
                lang.pick(
                    format!("still running after {secs} s with all its input read: {EOF_EN}"),
                    format!("读完全部输入后运行超过 {secs} 秒仍未结束：{EOF_ZH}"),
                )
            }
            Finding::Timeout {
                limit_ms,
                input_exhausted: false,
            } => {
                let secs = *limit_ms as f64 / 1000.0;
                lang.pick(
                    format!("still running after {secs} s before reading all its input: an endless loop?"),
                    format!("运行超过 {secs} 秒，输入还没读完：是死循环吗？"),
                )
            }
            Finding::OutputLimit {
                limit_bytes,
                input_exhausted,
            } => {
                let kib = limit_bytes / 1024;
                match input_exhausted {
                    true => lang.pick(
                        format!("printed more than {kib} KiB after reading all its input: {EOF_EN}"),
                        format!("读完全部输入后输出超过 {kib} KiB：{EOF_ZH}"),
                    ),
                    false => lang.pick(
                        format!("printed more than {kib} KiB and was stopped: a loop that prints without end?"),
                        format!("输出超过 {kib} KiB 被终止：是不是有一个不停打印的循环？"),
                    ),
                }
            }
            Finding::Crashed { signal } => crash_message(*signal, lang),
            Finding::NonzeroExit { code } => lang.pick(
                format!("exited with status {code}: main should return 0 when all went well"),
                format!("退出状态为 {code}：程序正常结束时 main 应该返回 0"),
            ),
            Finding::Sanitizer { report } => lang.pick(
                format!("the sanitizer stopped your program: {report}"),
                format!("检查器（sanitizer）终止了程序：{report}"),
            ),
        }
    }
}

fn crash_message(signal: i32, lang: Lang) -> String {
    let name =
        nix::sys::signal::Signal::try_from(signal).map_or("an unknown signal", |s| s.as_str());
    let (en, zh) = match name {
        "SIGSEGV" => ("an out-of-bounds access?", "是不是数组越界访问？"),
        "SIGBUS" => ("a bad pointer?", "是不是使用了错误的指针？"),
        "SIGABRT" => (
            "abort() was called, by a failed assert or a corrupted heap",
            "调用了 abort()：断言失败或堆被破坏",
        ),
        "SIGFPE" => ("an integer division by zero?", "是不是整数除以零？"),
        "SIGILL" => (
            "an illegal instruction: undefined behaviour?",
            "非法指令：是不是未定义行为？",
        ),
        "SIGPIPE" => ("it wrote to a closed pipe", "向已关闭的管道写入"),
        _ => ("", ""),
    };
    let (en, zh) = if en.is_empty() {
        (String::new(), String::new())
    } else {
        (format!(": {en}"), format!("：{zh}"))
    };
    lang.pick(
        format!("crashed with {name}{en}"),
        format!("程序崩溃（{name}）{zh}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const LIMITS: Limits = Limits {
        wall_time: Duration::from_secs(2),
        output_bytes: 1024,
    };

    fn outcome(termination: Termination, stdout: &str, stderr: &str) -> Outcome {
        Outcome {
            termination,
            stopped: None,
            stdout: stdout.into(),
            stderr: stderr.into(),
            elapsed: Duration::ZERO,
            input_exhausted: true,
        }
    }

    #[test]
    fn order_of_decisions() {
        let run = |termination, stdout| {
            judge(
                &outcome(termination, stdout, ""),
                b"none\n",
                CompareMode::Lines,
                LIMITS,
            )
            .verdict()
        };
        assert_eq!(run(Termination::Exited(0), "none\n"), Verdict::Passed);
        assert_eq!(run(Termination::Exited(0), "black\n"), Verdict::WrongOutput);
        assert_eq!(run(Termination::Exited(3), "none\n"), Verdict::NonzeroExit);
        assert_eq!(run(Termination::Signaled(11), "none\n"), Verdict::Crashed);
        let mut stopped = outcome(Termination::Signaled(9), "none\n", "");
        stopped.stopped = Some(Stop::WallTime);
        assert_eq!(
            judge(&stopped, b"none\n", CompareMode::Lines, LIMITS).verdict(),
            Verdict::Timeout
        );
    }

    #[test]
    fn sanitizer_report_is_quoted_with_its_location() {
        let stderr =
            "x.c:9:12: runtime error: index 15 out of bounds for type 'char [15]'\n    #0 main\n";
        let found = judge(
            &outcome(Termination::Exited(SANITIZER_EXIT_CODE), "", stderr),
            b"",
            CompareMode::Lines,
            LIMITS,
        );
        assert_eq!(found.verdict(), Verdict::Sanitizer);
        assert!(
            found
                .message(Lang::En)
                .contains("x.c:9:12: runtime error: index 15")
        );
        // The same status without a report is just the program's own exit code.
        let plain = judge(
            &outcome(Termination::Exited(SANITIZER_EXIT_CODE), "", ""),
            b"",
            CompareMode::Lines,
            LIMITS,
        );
        assert_eq!(
            plain,
            Finding::NonzeroExit {
                code: SANITIZER_EXIT_CODE
            }
        );
    }

    #[test]
    fn crash_names_signal_and_likely_cause() {
        let message = Finding::Crashed { signal: 11 }.message(Lang::En);
        assert!(
            message.contains("SIGSEGV") && message.contains("out-of-bounds"),
            "{message}"
        );
    }

    #[test]
    fn eof_loop_is_explained_when_input_was_all_read() {
        let message = Finding::Timeout {
            limit_ms: 2000,
            input_exhausted: true,
        }
        .message(Lang::En);
        assert!(
            message.contains("scanf") && message.contains("EOF"),
            "{message}"
        );
        let message = Finding::Timeout {
            limit_ms: 2000,
            input_exhausted: false,
        }
        .message(Lang::En);
        assert!(!message.contains("EOF"), "{message}");
    }
}

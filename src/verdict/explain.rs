//! What a verdict says to a student: the likely mistake behind each finding, and the one
//! fixed sentence per verdict that a hidden case gets instead.

use crate::util::i18n::Lang;

use super::{Clock, FileProblem, Finding, InputRead, JudgedBy, Verdict};

impl Finding {
    /// One line for the student: what happened and the likely mistake behind it.
    pub fn message(&self, lang: Lang) -> String {
        // Blamed on scanf only when the output shows the loop going round on ended input.
        const EOF_EN: &str = "the same again and again: a loop that goes on reading after \
                              the input has ended (scanf returns EOF there: check its return value)";
        const EOF_ZH: &str = "而且一遍又一遍地输出同样的内容：这是一个在输入结束后还在继续读的循环（\
                              此时 scanf 返回 EOF：检查它的返回值）";
        // Nothing tells the two apart: both are named, neither as the likely one.
        const OWN_EN: &str = "a loop that never ends. Either a loop's counter never changes or \
                              never reaches its bound, or a loop reads on after the end of the \
                              input without checking what scanf returns (EOF, -1)";
        const OWN_ZH: &str = "有一个永远不会结束的循环。要么某个循环的计数器没有变化、或者到不了边界，\
                              要么某个循环在输入结束后还在读，却没有检查 scanf 的返回值（EOF，即 -1）";
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
            Finding::Skipped => lang
                .pick(
                    "not run: the program had already run out of time on other cases, so it loops",
                    "未运行：程序在其他用例上已经超时，说明它陷入了死循环",
                )
                .into(),
            Finding::Timeout {
                clock: Clock::Wall,
                limit_ms,
                busy: false,
                ..
            } => {
                let secs = *limit_ms as f64 / 1000.0;
                lang.pick(
                    format!("still running after {secs} s while using almost no CPU: is it sleeping, or waiting for something that never comes?"),
                    format!("运行超过 {secs} 秒，却几乎没有占用 CPU：是在 sleep，还是在等待永远不会发生的事？"),
                )
            }
            Finding::Timeout {
                clock,
                limit_ms,
                input,
                ..
            } => {
                let secs = *limit_ms as f64 / 1000.0;
                let (en, zh) = match clock {
                    Clock::Cpu => (
                        format!("used {secs} s of CPU time"),
                        format!("占用了 {secs} 秒 CPU 时间"),
                    ),
                    Clock::Wall => (
                        format!("still running after {secs} s"),
                        format!("运行超过 {secs} 秒仍未结束"),
                    ),
                };
                match input {
                    InputRead::Partly => lang.pick(
                        format!("{en} before reading all its input: an endless loop?"),
                        format!("输入还没读完就{zh}：是死循环吗？"),
                    ),
                    InputRead::All => lang.pick(
                        format!("{en} with all its input read, printing nothing that repeats: {OWN_EN}"),
                        format!("读完全部输入后{zh}，也没有重复输出：{OWN_ZH}"),
                    ),
                    InputRead::AllThenRepeats => lang.pick(
                        format!("{en} with all its input read, printing {EOF_EN}"),
                        format!("读完全部输入后{zh}，{EOF_ZH}"),
                    ),
                }
            }
            Finding::OutputLimit { limit_bytes, input } => {
                let kib = limit_bytes / 1024;
                match input {
                    InputRead::AllThenRepeats => lang.pick(
                        format!("printed more than {kib} KiB after reading all its input, {EOF_EN}"),
                        format!("读完全部输入后输出超过 {kib} KiB，{EOF_ZH}"),
                    ),
                    InputRead::All => lang.pick(
                        format!("printed more than {kib} KiB after reading all its input: a loop that prints without end?"),
                        format!("读完全部输入后输出超过 {kib} KiB：是不是有一个不停打印的循环？"),
                    ),
                    InputRead::Partly => lang.pick(
                        format!("printed more than {kib} KiB and was stopped: a loop that prints without end?"),
                        format!("输出超过 {kib} KiB 被终止：是不是有一个不停打印的循环？"),
                    ),
                }
            }
            Finding::MemoryLimit { limit_mb } => lang.pick(
                format!("ran out of memory at the limit of {limit_mb} MiB: an allocation in a loop that never ends, or an array far too big?"),
                format!("内存用到了 {limit_mb} MiB 的上限：是不是在循环里不停地分配内存，或者数组开得太大？"),
            ),
            Finding::Crashed { signal } => crash_message(*signal, lang),
            Finding::NonzeroExit { code } => lang.pick(
                format!("exited with status {code}: main should return 0 when all went well"),
                format!("退出状态为 {code}：程序正常结束时 main 应该返回 0"),
            ),
            Finding::WrongExitStatus { code, expected } => lang.pick(
                format!("exited with status {code}, but this case expects {expected}: return {expected} from main (or exit({expected})) where the program gives up"),
                format!("退出状态为 {code}，这个用例期望的是 {expected}：程序放弃时应该从 main 返回 {expected}（或调用 exit({expected})）"),
            ),
            Finding::Rejected { by, message } => {
                let (en, zh) = match by {
                    JudgedBy::Checker => (
                        "the course's checker rejected your output",
                        "课程的检查程序判定你的输出不正确",
                    ),
                    JudgedBy::Referee => (
                        "the course's referee rejected your program's play",
                        "课程的裁判程序判定你的程序出错",
                    ),
                };
                match message.is_empty() {
                    true => lang.pick(en, zh).to_string(),
                    false => lang.pick(format!("{en}: {message}"), format!("{zh}：{message}")),
                }
            }
            Finding::WrongFile { name, problem } => match problem {
                FileProblem::Missing => lang.pick(
                    format!("{name} is missing: the program must leave it in its working directory (fopen(\"{name}\", \"w\"), then fclose)"),
                    format!("{name} 不存在：程序结束时应该在当前目录留下这个文件（fopen(\"{name}\", \"w\")，写完后 fclose）"),
                ),
                FileProblem::NotAFile => lang.pick(
                    format!("{name} is not a plain file the program wrote (a directory, a link or a pipe)"),
                    format!("{name} 不是程序写出的普通文件（而是目录、链接或管道）"),
                ),
                FileProblem::TooBig => lang.pick(
                    format!("{name} is larger than a program may write"),
                    format!("{name} 超过了程序可以写入的大小"),
                ),
                FileProblem::Differs => lang.pick(
                    format!("{name} differs from the expected file"),
                    format!("{name} 与期望的文件内容不同"),
                ),
            },
            Finding::Sanitizer { report } => {
                let (en, zh) = sanitizer_cause(report);
                lang.pick(
                    format!("the sanitizer stopped your program: {report}{en}"),
                    format!("检查器（sanitizer）终止了程序：{report}{zh}"),
                )
            }
        }
    }

    /// What a hidden case says instead of [`Finding::message`]: one sentence per verdict.
    /// Everything else — the signal, the exit status, the sanitizer's line, whether the
    /// input was all read — is the program's to choose, so it could carry the hidden input.
    pub fn sealed_message(&self, lang: Lang) -> &'static str {
        match self.verdict() {
            Verdict::Passed => lang.pick("correct output", "输出正确"),
            Verdict::WrongOutput => lang.pick(
                "the output differs from the expected output",
                "输出与期望输出不同",
            ),
            Verdict::CompileError => lang.pick("the program did not compile", "程序没有通过编译"),
            Verdict::NotRun => lang.pick(
                "not run: the program did not compile, its file is missing, or it had already run out of time on other cases",
                "未运行：程序没有通过编译、文件不存在，或者在其他用例上已经超时",
            ),
            Verdict::Timeout => lang.pick("the program ran out of time", "程序超时"),
            Verdict::OutputLimit => lang.pick(
                "the program printed too much and was stopped",
                "程序输出过多，被终止",
            ),
            Verdict::MemoryLimit => lang.pick("the program ran out of memory", "程序内存不足"),
            Verdict::Crashed => lang.pick("the program crashed", "程序崩溃"),
            Verdict::NonzeroExit => lang.pick(
                "the program's exit status was not 0",
                "程序的退出状态不是 0",
            ),
            Verdict::Sanitizer => lang.pick(
                "the sanitizer found undefined behaviour and stopped the program",
                "检查器（sanitizer）发现了未定义行为，终止了程序",
            ),
        }
    }
}

/// The likely mistake behind a sanitizer's report, from its own words: the report names
/// the line, this says what to look for there.
fn sanitizer_cause(report: &str) -> (&'static str, &'static str) {
    const CAUSES: [(&str, &str, &str); 5] = [
        (
            "out of bounds",
            " — an index outside the array: test it against the bounds before the access (in an || or && condition, the bounds test goes first)",
            " —— 下标越界：访问数组之前先检查下标是否在范围内（在 || 或 && 条件中，边界检查要写在前面）",
        ),
        (
            "buffer-overflow",
            " — a write or read past the end of an array: is it one element too small (the '\\0' of a string)?",
            " —— 读写越过了数组末尾：数组是不是少了一个元素（字符串末尾的 '\\0'）？",
        ),
        (
            "null pointer",
            " — a pointer used before it points anywhere",
            " —— 指针在指向有效内存之前就被使用了",
        ),
        (
            "signed integer overflow",
            " — a number grew past what an int holds: a loop that does not stop?",
            " —— 整数超出了 int 的范围：是不是循环没有停下来？",
        ),
        ("division by zero", " — a division by zero", " —— 除数为零"),
    ];
    CAUSES
        .iter()
        .find(|(words, _, _)| report.contains(words))
        .map_or(("", ""), |(_, en, zh)| (en, zh))
}

/// A signal's name (`SIGSEGV`), as a crash is told.
pub fn signal_name(signal: i32) -> &'static str {
    nix::sys::signal::Signal::try_from(signal).map_or("an unknown signal", |s| s.as_str())
}

fn crash_message(signal: i32, lang: Lang) -> String {
    let name = signal_name(signal);
    let (en, zh) = match name {
        "SIGSEGV" => (
            "an out-of-bounds access, or a recursion without end?",
            "是不是数组越界访问，或者递归没有尽头？",
        ),
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
        "SIGXFSZ" => (
            "a file it wrote grew past the size limit",
            "写入的文件超过了大小限制",
        ),
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

    #[test]
    fn sealed_messages_carry_nothing_of_the_run() {
        let findings = [
            Finding::Crashed { signal: 11 },
            Finding::NonzeroExit { code: 42 },
            Finding::Sanitizer {
                report: "x.c:1:1: runtime error: secret".into(),
            },
            Finding::MemoryLimit { limit_mb: 256 },
        ];
        for finding in findings {
            for lang in [Lang::En, Lang::Zh] {
                let sealed = finding.sealed_message(lang);
                assert!(
                    !sealed.contains("11") && !sealed.contains("42") && !sealed.contains("secret"),
                    "{sealed}"
                );
                assert!(
                    !sealed.contains("256") && !sealed.contains("SIGSEGV"),
                    "{sealed}"
                );
            }
        }
        assert_eq!(
            Finding::Crashed { signal: 6 }.sealed_message(Lang::En),
            Finding::Crashed { signal: 11 }.sealed_message(Lang::En)
        );
    }

    #[test]
    fn sealed_messages_are_one_sentence_per_verdict() {
        let timeout = |clock, input, busy| Finding::Timeout {
            clock,
            limit_ms: 2000,
            input,
            busy,
        };
        // One finding of each verdict a run can get (compile_error is the exercise's, not a
        // case's); each sealed sentence says which verdict, so no two are alike.
        let one_of_each = [
            Finding::Passed,
            Finding::WrongOutput,
            Finding::NotRun,
            timeout(Clock::Cpu, InputRead::AllThenRepeats, true),
            Finding::OutputLimit {
                limit_bytes: 1024,
                input: InputRead::AllThenRepeats,
            },
            Finding::MemoryLimit { limit_mb: 256 },
            Finding::Crashed { signal: 11 },
            Finding::NonzeroExit { code: 1 },
            Finding::Sanitizer {
                report: String::new(),
            },
        ];
        for lang in [Lang::En, Lang::Zh] {
            let sentences: std::collections::HashSet<&str> = one_of_each
                .iter()
                .map(|finding| finding.sealed_message(lang))
                .collect();
            assert_eq!(sentences.len(), one_of_each.len(), "{sentences:?}");
        }
        assert_eq!(
            Finding::Sanitizer {
                report: String::new()
            }
            .sealed_message(Lang::En),
            "the sanitizer found undefined behaviour and stopped the program"
        );
        // Which clock, whether the input was all read, whether it slept: the program's to
        // choose, so none of it changes the sentence.
        let sentence =
            timeout(Clock::Cpu, InputRead::AllThenRepeats, true).sealed_message(Lang::En);
        assert_eq!(sentence, "the program ran out of time");
        for other in [
            timeout(Clock::Wall, InputRead::Partly, true),
            timeout(Clock::Wall, InputRead::All, false),
        ] {
            assert_eq!(other.sealed_message(Lang::En), sentence);
        }
        // A missing file says the same as a compile that failed: both are not_run.
        assert_eq!(
            Finding::Missing.sealed_message(Lang::En),
            Finding::NotRun.sealed_message(Lang::En)
        );
    }

    #[test]
    fn crash_names_signal_and_likely_cause() {
        // The verdict tables' promise: each crash is named with its likely cause.
        let causes = [
            (libc::SIGSEGV, "SIGSEGV", "out-of-bounds access", "数组越界"),
            (libc::SIGBUS, "SIGBUS", "a bad pointer", "错误的指针"),
            (libc::SIGABRT, "SIGABRT", "abort() was called", "abort()"),
            (libc::SIGFPE, "SIGFPE", "division by zero", "除以零"),
            (libc::SIGILL, "SIGILL", "illegal instruction", "非法指令"),
            (libc::SIGPIPE, "SIGPIPE", "closed pipe", "管道"),
            (libc::SIGXFSZ, "SIGXFSZ", "past the size limit", "大小限制"),
        ];
        for (signal, name, en, zh) in causes {
            let finding = Finding::Crashed { signal };
            let message = finding.message(Lang::En);
            assert!(
                message.starts_with(&format!("crashed with {name}: ")) && message.contains(en),
                "{message}"
            );
            let message = finding.message(Lang::Zh);
            assert!(
                message.starts_with(&format!("程序崩溃（{name}）：")) && message.contains(zh),
                "{message}"
            );
        }
        // A signal with no likely mistake behind it is named alone, without a dangling colon.
        assert_eq!(
            Finding::Crashed {
                signal: libc::SIGKILL
            }
            .message(Lang::En),
            "crashed with SIGKILL"
        );
        assert_eq!(
            Finding::Crashed { signal: 200 }.message(Lang::En),
            "crashed with an unknown signal"
        );
    }

    #[test]
    fn a_sanitizer_report_is_explained_by_its_own_words() {
        let message = |report: &str| {
            Finding::Sanitizer {
                report: report.into(),
            }
            .message(Lang::En)
        };
        let bounds = message(
            "check_win.c:20:21: runtime error: index 15 out of bounds for type 'char [15]'",
        );
        assert!(bounds.contains("bounds test goes first"), "{bounds}");
        let overflow =
            message("SUMMARY: AddressSanitizer: stack-buffer-overflow check_win.c:30 in main");
        assert!(overflow.contains("'\\0'"), "{overflow}");
        let other = message("x.c:1:1: runtime error: load of misaligned address");
        assert!(other.ends_with("misaligned address"), "{other}");
    }
}

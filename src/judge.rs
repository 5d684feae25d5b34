//! Where a verdict is decided: from how the program ended and what it printed.

use crate::compare::CompareMode;
use crate::compile::SANITIZER_EXIT_CODE;
use crate::i18n::Lang;
use crate::sandbox::{Limits, Outcome, Stop, Termination};
use crate::style;

/// What AddressSanitizer says when its allocator limits (set from the memory limit) stop
/// the program, or when memory truly runs out.
const ASAN_MEMORY_REPORTS: [&str; 4] = [
    "AddressSanitizer: hard rss limit exhausted",
    "AddressSanitizer: allocation-size-too-big",
    "AddressSanitizer: out-of-memory",
    "AddressSanitizer: requested allocation size",
];

/// One word per result, the same in every report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    WrongOutput,
    CompileError,
    Timeout,
    OutputLimit,
    MemoryLimit,
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
            Verdict::MemoryLimit => "memory_limit",
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
        clock: Clock,
        limit_ms: u64,
        input_exhausted: bool,
        /// Whether it was using the processor (rather than sleeping or waiting); assumed
        /// when unknown.
        busy: bool,
    },
    OutputLimit {
        limit_bytes: usize,
        input_exhausted: bool,
    },
    MemoryLimit {
        limit_mb: u64,
    },
    Crashed {
        signal: i32,
    },
    NonzeroExit {
        code: i32,
    },
    /// The sanitizer's first report line, which names the file and line. It comes from
    /// the program's stderr, so its control characters are escaped (see [`crate::style::visible`]).
    Sanitizer {
        report: String,
    },
}

/// Which time limit a program ran into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Processor time, counted by the kernel (RLIMIT_CPU).
    Cpu,
    /// Real time, counted by clings.
    Wall,
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
            // A quarter leaves room for a busy program that shared the processor.
            let busy = outcome
                .cpu_time
                .is_none_or(|cpu| cpu * 4 >= outcome.elapsed);
            return Finding::Timeout {
                clock: Clock::Wall,
                limit_ms: limits.wall_time.as_millis() as u64,
                input_exhausted: outcome.input_exhausted,
                busy,
            };
        }
        Some(Stop::CpuTime) => {
            return Finding::Timeout {
                clock: Clock::Cpu,
                limit_ms: limits.cpu_seconds() * 1000,
                input_exhausted: outcome.input_exhausted,
                busy: true,
            };
        }
        Some(Stop::Memory) => return memory_limit(limits),
        None => {}
    }
    if outcome.termination == Termination::Exited(SANITIZER_EXIT_CODE) {
        let stderr = String::from_utf8_lossy(&outcome.stderr);
        if ASAN_MEMORY_REPORTS
            .iter()
            .any(|report| stderr.contains(report))
        {
            return memory_limit(limits);
        }
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

fn memory_limit(limits: Limits) -> Finding {
    Finding::MemoryLimit {
        limit_mb: limits.memory.bytes.div_ceil(1024 * 1024),
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
    ubsan
        .or_else(asan)
        .map(|line| style::visible(line.trim()).into_owned())
}

impl Finding {
    pub fn verdict(&self) -> Verdict {
        match self {
            Finding::Passed => Verdict::Passed,
            Finding::WrongOutput => Verdict::WrongOutput,
            Finding::NotRun | Finding::Missing => Verdict::NotRun,
            Finding::Timeout { .. } => Verdict::Timeout,
            Finding::OutputLimit { .. } => Verdict::OutputLimit,
            Finding::MemoryLimit { .. } => Verdict::MemoryLimit,
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
                clock: Clock::Cpu,
                limit_ms,
                input_exhausted,
                ..
            } => {
                let secs = *limit_ms as f64 / 1000.0;
                match input_exhausted {
                    true => lang.pick(
                        format!("used {secs} s of CPU time with all its input read: {EOF_EN}"),
                        format!("读完全部输入后占用了 {secs} 秒 CPU 时间：{EOF_ZH}"),
                    ),
                    false => lang.pick(
                        format!("used {secs} s of CPU time before reading all its input: an endless loop?"),
                        format!("输入还没读完就占用了 {secs} 秒 CPU 时间：是死循环吗？"),
                    ),
                }
            }
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
                clock: Clock::Wall,
                limit_ms,
                input_exhausted: true,
                busy: true,
            } => {
                let secs = *limit_ms as f64 / 1000.0;
                lang.pick(
                    format!("still running after {secs} s with all its input read: {EOF_EN}"),
                    format!("读完全部输入后运行超过 {secs} 秒仍未结束：{EOF_ZH}"),
                )
            }
            Finding::Timeout {
                clock: Clock::Wall,
                limit_ms,
                input_exhausted: false,
                busy: true,
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
            Finding::MemoryLimit { limit_mb } => lang.pick(
                format!("ran out of memory at the limit of {limit_mb} MiB: an allocation in a loop that never ends, or an array far too big?"),
                format!("内存用到了 {limit_mb} MiB 的上限：是不是在循环里不停地分配内存，或者数组开得太大？"),
            ),
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
                "not run: the program did not compile, or its file is missing",
                "未运行：程序没有通过编译，或者文件不存在",
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

fn crash_message(signal: i32, lang: Lang) -> String {
    let name =
        nix::sys::signal::Signal::try_from(signal).map_or("an unknown signal", |s| s.as_str());
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
    use crate::sandbox::{Memory, MemoryEnforcement};
    use std::time::Duration;

    const LIMITS: Limits = Limits {
        wall_time: Duration::from_secs(2),
        cpu_time: Duration::from_secs(1),
        memory: Memory {
            bytes: 256 << 20,
            enforcement: MemoryEnforcement::AddressSpace,
        },
        processes: 16,
        file_size_bytes: 1 << 20,
        open_files: 64,
        output_bytes: 1024,
    };

    fn outcome(termination: Termination, stdout: &str, stderr: &str) -> Outcome {
        Outcome {
            termination,
            stopped: None,
            stdout: stdout.into(),
            stderr: stderr.into(),
            elapsed: Duration::ZERO,
            cpu_time: Some(Duration::ZERO),
            peak_memory_bytes: Some(0),
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
    fn sanitizer_report_reaches_no_report_raw() {
        let stderr = "x.c:1:1: runtime error: \x1b]52;c;aGk=\x07\n";
        let found = judge(
            &outcome(Termination::Exited(SANITIZER_EXIT_CODE), "", stderr),
            b"",
            CompareMode::Lines,
            LIMITS,
        );
        let message = found.message(Lang::En);
        assert!(message.contains("\\x1b]52;c;aGk=\\x07"), "{message}");
    }

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
        let timeout = |clock, input_exhausted, busy| Finding::Timeout {
            clock,
            limit_ms: 2000,
            input_exhausted,
            busy,
        };
        // One finding of each verdict a run can get (compile_error is the exercise's, not a
        // case's); each sealed sentence says which verdict, so no two are alike.
        let one_of_each = [
            Finding::Passed,
            Finding::WrongOutput,
            Finding::NotRun,
            timeout(Clock::Cpu, true, true),
            Finding::OutputLimit {
                limit_bytes: 1024,
                input_exhausted: true,
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
        let sentence = timeout(Clock::Cpu, true, true).sealed_message(Lang::En);
        assert_eq!(sentence, "the program ran out of time");
        for other in [
            timeout(Clock::Wall, false, true),
            timeout(Clock::Wall, true, false),
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
        // The README's promise: each crash is named with its likely cause.
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
    fn verdict_names_are_the_documented_words() {
        // The words of the README's verdict table, which every report (text, JSON, JUnit,
        // GitHub, grades.csv) prints.
        let words = [
            (Verdict::Passed, "passed"),
            (Verdict::WrongOutput, "wrong_output"),
            (Verdict::CompileError, "compile_error"),
            (Verdict::Timeout, "timeout"),
            (Verdict::OutputLimit, "output_limit"),
            (Verdict::MemoryLimit, "memory_limit"),
            (Verdict::Crashed, "crashed"),
            (Verdict::NonzeroExit, "nonzero_exit"),
            (Verdict::Sanitizer, "sanitizer"),
            (Verdict::NotRun, "not_run"),
        ];
        let readme = include_str!("../README.md");
        for (verdict, word) in words {
            assert_eq!(verdict.as_str(), word);
            assert!(readme.contains(&format!("| `{word}` |")), "{word}");
        }
    }

    #[test]
    fn eof_loop_is_explained_when_input_was_all_read() {
        for clock in [Clock::Cpu, Clock::Wall] {
            let timeout = |input_exhausted| Finding::Timeout {
                clock,
                limit_ms: 2000,
                input_exhausted,
                busy: true,
            };
            let message = timeout(true).message(Lang::En);
            assert!(
                message.contains("scanf") && message.contains("EOF"),
                "{message}"
            );
            // ...after saying which clock stopped it, at what limit.
            let stopped = match clock {
                Clock::Cpu => "used 2 s of CPU time with all its input read: ",
                Clock::Wall => "still running after 2 s with all its input read: ",
            };
            assert!(message.starts_with(stopped), "{message}");
            assert!(!timeout(false).message(Lang::En).contains("EOF"));
        }
    }

    #[test]
    fn timeout_says_which_clock_and_whether_the_program_was_busy() {
        let stopped = |stop, cpu_ms: Option<u64>| {
            let mut outcome = outcome(Termination::Signaled(9), "", "");
            outcome.stopped = Some(stop);
            outcome.elapsed = Duration::from_millis(2000);
            outcome.cpu_time = cpu_ms.map(Duration::from_millis);
            outcome.input_exhausted = false;
            judge(&outcome, b"", CompareMode::Lines, LIMITS)
        };
        let timeout = |clock, limit_ms, busy| Finding::Timeout {
            clock,
            limit_ms,
            input_exhausted: false,
            busy,
        };
        // RLIMIT_CPU stopped it: it was spinning. The limit is the configured CPU time.
        let cpu = stopped(Stop::CpuTime, Some(1000));
        assert_eq!(cpu, timeout(Clock::Cpu, 1000, true));
        // Stopped by the wall clock: busy if it had the processor a quarter of the time or
        // more (a spinner that shared a loaded machine: 30 %), idle if it slept.
        let busy = stopped(Stop::WallTime, Some(1900));
        assert_eq!(busy, timeout(Clock::Wall, 2000, true));
        assert_eq!(
            stopped(Stop::WallTime, Some(600)),
            timeout(Clock::Wall, 2000, true)
        );
        let idle = stopped(Stop::WallTime, Some(3));
        assert_eq!(idle, timeout(Clock::Wall, 2000, false));
        // Where the CPU time is unknown, an endless loop is the likelier mistake.
        assert_eq!(
            stopped(Stop::WallTime, None),
            timeout(Clock::Wall, 2000, true)
        );

        // Each message names its clock and its limit, and only the idle one asks about
        // sleeping: the three share no sentence.
        let cpu = cpu.message(Lang::En);
        assert_eq!(
            cpu,
            "used 1 s of CPU time before reading all its input: an endless loop?"
        );
        let busy = busy.message(Lang::En);
        assert_eq!(
            busy,
            "still running after 2 s before reading all its input: an endless loop?"
        );
        let idle_zh = idle.message(Lang::Zh);
        let idle = idle.message(Lang::En);
        assert!(
            idle.starts_with("still running after 2 s while using almost no CPU: is it sleeping"),
            "{idle}"
        );
        assert!(!idle.contains("endless loop"), "{idle}");
        assert!(
            idle_zh.contains("运行超过 2 秒，却几乎没有占用 CPU"),
            "{idle_zh}"
        );
        let busy_zh = timeout(Clock::Wall, 2000, true).message(Lang::Zh);
        assert!(
            busy_zh.contains("运行超过 2 秒")
                && busy_zh.contains("死循环")
                && !busy_zh.contains("CPU"),
            "{busy_zh}"
        );
        assert!(
            timeout(Clock::Cpu, 1000, true)
                .message(Lang::Zh)
                .contains("占用了 1 秒 CPU 时间"),
        );
    }

    #[test]
    fn output_limit_names_the_limit_and_explains_an_eof_loop() {
        let limits = Limits {
            output_bytes: 64 * 1024,
            ..LIMITS
        };
        let mut stopped = outcome(Termination::Signaled(9), "", "");
        stopped.stopped = Some(Stop::OutputLimit);
        stopped.input_exhausted = false;
        let finding = judge(&stopped, b"", CompareMode::Lines, limits);
        assert_eq!(
            finding,
            Finding::OutputLimit {
                limit_bytes: 64 * 1024,
                input_exhausted: false
            }
        );
        assert_eq!(
            finding.message(Lang::En),
            "printed more than 64 KiB and was stopped: a loop that prints without end?"
        );
        stopped.input_exhausted = true;
        let message = judge(&stopped, b"", CompareMode::Lines, limits).message(Lang::En);
        assert!(
            message.starts_with("printed more than 64 KiB after reading all its input:")
                && message.contains("scanf probably returned EOF"),
            "{message}"
        );
    }

    #[test]
    fn memory_limit_from_the_sandbox_or_from_address_sanitizer() {
        let mut stopped = outcome(Termination::Signaled(11), "", "");
        stopped.stopped = Some(Stop::Memory);
        let finding = judge(&stopped, b"", CompareMode::Lines, LIMITS);
        assert_eq!(finding, Finding::MemoryLimit { limit_mb: 256 });
        assert!(finding.message(Lang::En).contains("256 MiB"));
        assert!(finding.message(Lang::Zh).contains("256 MiB"));
        let asan = outcome(
            Termination::Exited(SANITIZER_EXIT_CODE),
            "",
            "==1==AddressSanitizer: hard rss limit exhausted (256Mb vs 277Mb)\n",
        );
        assert_eq!(
            judge(&asan, b"", CompareMode::Lines, LIMITS).verdict(),
            Verdict::MemoryLimit
        );
    }
}

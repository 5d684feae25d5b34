//! Where a verdict is decided: from how the program ended and what it printed.

use crate::sandbox::{Left, Limits, Outcome, Stop, Termination};
use crate::util::style;
use crate::verdict::compare::CompareMode;

use super::{Clock, FileProblem, Finding, InputRead, SANITIZER_EXIT_CODE};

/// What AddressSanitizer says when its allocator limits (set from the memory limit) stop
/// the program, or when memory runs out (at the limits on data and address space past
/// its start): the first line of that report too, which is all there is of it when the
/// report itself runs out of memory, and what it says when it cannot map memory of its
/// own (in full, or raw when even that message cannot be formatted).
const ASAN_MEMORY_REPORTS: [&str; 7] = [
    "AddressSanitizer: hard rss limit exhausted",
    "AddressSanitizer: allocation-size-too-big",
    "AddressSanitizer: out-of-memory",
    "AddressSanitizer: allocator is out of memory",
    "AddressSanitizer: requested allocation size",
    "AddressSanitizer failed to allocate",
    "ERROR: Failed to mmap",
];

/// What a case expects of a program that ends by itself.
#[derive(Clone, Copy, Debug)]
pub struct Expected<'a> {
    pub stdout: &'a [u8],
    pub exit_code: i32,
    /// Files to be left in the working directory, by name, in the order they are judged.
    pub files: &'a [(String, Vec<u8>)],
    /// The course's checker's word on stdout, which then replaces the comparison with
    /// `stdout` (see the grading stage's `checkers`).
    pub checked: Option<&'a Checked>,
}

/// What the course's checker or referee said of a program's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    Accepted,
    /// With its message for the student (escaped), empty when it gave none.
    Rejected {
        by: JudgedBy,
        message: String,
    },
}

/// Which program of the course's judged a case (see the grading stage's `checkers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JudgedBy {
    /// An output validator: it reads the output once the program has ended.
    Checker,
    /// An interactor: it talks with the program while it runs.
    Referee,
}

impl JudgedBy {
    pub fn name(self) -> &'static str {
        match self {
            JudgedBy::Checker => "checker",
            JudgedBy::Referee => "referee",
        }
    }
}

/// Whether a run gets as far as its output being judged: nothing stopped it, no sanitizer
/// report or signal ended it, and it ended with the status the case asks for. Only then is
/// a case's checker run.
pub fn reaches_output(outcome: &Outcome, exit_code: i32) -> bool {
    outcome.stopped.is_none()
        && outcome.termination == Termination::Exited(exit_code)
        && exit_code != SANITIZER_EXIT_CODE
}

impl<'a> Expected<'a> {
    /// This output, an exit status of 0, and no file.
    #[cfg(test)]
    pub fn stdout(stdout: &'a [u8]) -> Self {
        Expected {
            stdout,
            exit_code: 0,
            files: &[],
            checked: None,
        }
    }
}

/// Decides in a fixed order: what clings had to stop, then how the program ended, and
/// only then whether its output was right: stdout, then each file it was to leave.
pub fn judge(outcome: &Outcome, expected: &Expected, mode: CompareMode, limits: Limits) -> Finding {
    match outcome.stopped {
        Some(Stop::OutputLimit) => {
            return Finding::OutputLimit {
                limit_bytes: limits.output_bytes,
                input: InputRead::of(outcome.input_exhausted, &outcome.stdout),
            };
        }
        Some(Stop::WallTime) => {
            // Running when stopped is a loop; else a quarter of the time on a processor
            // leaves room for a program that shared it.
            let busy = outcome.running_when_stopped
                || outcome
                    .cpu_time
                    .is_none_or(|cpu| cpu * 4 >= outcome.elapsed);
            return Finding::Timeout {
                clock: Clock::Wall,
                limit_ms: limits.wall_time.as_millis() as u64,
                input: InputRead::of(outcome.input_exhausted, &outcome.stdout),
                busy,
            };
        }
        Some(Stop::CpuTime) => {
            return Finding::Timeout {
                clock: Clock::Cpu,
                limit_ms: limits.cpu_seconds() * 1000,
                input: InputRead::of(outcome.input_exhausted, &outcome.stdout),
                busy: true,
            };
        }
        Some(Stop::Memory) => return memory_limit(limits),
        // The referee saw the game to its end: its verdict says whether going on after it
        // was a fault.
        Some(Stop::GameOver) => return compare_output(outcome, expected, mode),
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
        Termination::Exited(code) if code == expected.exit_code => {
            compare_output(outcome, expected, mode)
        }
        Termination::Exited(code) if expected.exit_code == 0 => Finding::NonzeroExit { code },
        Termination::Exited(code) => Finding::WrongExitStatus {
            code,
            expected: expected.exit_code,
        },
    }
}

/// The output of a program that ended as expected: stdout first, then the files.
fn compare_output(outcome: &Outcome, expected: &Expected, mode: CompareMode) -> Finding {
    match expected.checked {
        Some(Checked::Rejected { by, message }) => {
            return Finding::Rejected {
                by: *by,
                message: message.clone(),
            };
        }
        Some(Checked::Accepted) => {}
        None if !mode.matches(expected.stdout, &outcome.stdout) => return Finding::WrongOutput,
        None => {}
    }
    for (name, content) in expected.files {
        let left = outcome
            .files
            .iter()
            .find_map(|(left_name, left)| (left_name == name).then_some(left));
        let problem = match left {
            Some(Left::File(bytes)) if mode.matches(content, bytes) => continue,
            Some(Left::File(_)) => FileProblem::Differs,
            Some(Left::NotAFile) => FileProblem::NotAFile,
            Some(Left::TooBig) => FileProblem::TooBig,
            Some(Left::Missing) | None => FileProblem::Missing,
        };
        return Finding::WrongFile {
            name: name.clone(),
            problem,
        };
    }
    Finding::Passed
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{Memory, MemoryEnforcement};
    use crate::util::i18n::Lang;
    use crate::verdict::Verdict;
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
            running_when_stopped: false,
            files: Vec::new(),
        }
    }

    #[test]
    fn order_of_decisions() {
        let run = |termination, stdout| {
            judge(
                &outcome(termination, stdout, ""),
                &Expected::stdout(b"none\n"),
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
            judge(
                &stopped,
                &Expected::stdout(b"none\n"),
                CompareMode::Lines,
                LIMITS
            )
            .verdict(),
            Verdict::Timeout
        );
    }

    #[test]
    fn the_exit_status_a_case_asks_for_then_stdout_then_each_file() {
        let files = [
            ("a.txt".to_string(), b"1\n".to_vec()),
            ("b.txt".to_string(), b"2\n".to_vec()),
        ];
        let expected = Expected {
            stdout: b"ok\n",
            exit_code: 1,
            files: &files,
            checked: None,
        };
        let run = |code, stdout, left: &[(&str, Left)]| {
            let mut ran = outcome(Termination::Exited(code), stdout, "");
            ran.files = left
                .iter()
                .map(|(name, left)| (name.to_string(), left.clone()))
                .collect();
            judge(&ran, &expected, CompareMode::Lines, LIMITS)
        };
        let both = [
            ("a.txt", Left::File(b"1\n".to_vec())),
            ("b.txt", Left::File(b"2  \n".to_vec())),
        ];
        assert_eq!(run(1, "ok\n", &both), Finding::Passed);
        assert_eq!(
            run(0, "ok\n", &both),
            Finding::WrongExitStatus {
                code: 0,
                expected: 1
            }
        );
        assert_eq!(run(1, "no\n", &both), Finding::WrongOutput);
        let wrong_file = |name: &str, problem| Finding::WrongFile {
            name: name.to_string(),
            problem,
        };
        assert_eq!(
            run(1, "ok\n", &both[..1]),
            wrong_file("b.txt", FileProblem::Missing)
        );
        for (left, problem) in [
            (Left::File(b"9\n".to_vec()), FileProblem::Differs),
            (Left::Missing, FileProblem::Missing),
            (Left::NotAFile, FileProblem::NotAFile),
            (Left::TooBig, FileProblem::TooBig),
        ] {
            let files = [("a.txt", left), both[1].clone()];
            assert_eq!(run(1, "ok\n", &files), wrong_file("a.txt", problem));
        }
        // A case that asks for 0 keeps the nonzero_exit verdict.
        let plain = Expected::stdout(b"ok\n");
        let ran = outcome(Termination::Exited(2), "ok\n", "");
        assert_eq!(
            judge(&ran, &plain, CompareMode::Lines, LIMITS),
            Finding::NonzeroExit { code: 2 }
        );
    }

    #[test]
    fn sanitizer_report_is_quoted_with_its_location() {
        let stderr =
            "x.c:9:12: runtime error: index 15 out of bounds for type 'char [15]'\n    #0 main\n";
        let found = judge(
            &outcome(Termination::Exited(SANITIZER_EXIT_CODE), "", stderr),
            &Expected::stdout(b""),
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
            &Expected::stdout(b""),
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
            &Expected::stdout(b""),
            CompareMode::Lines,
            LIMITS,
        );
        let message = found.message(Lang::En);
        assert!(message.contains("\\x1b]52;c;aGk=\\x07"), "{message}");
    }

    #[test]
    fn scanf_is_blamed_only_when_the_output_repeats_after_the_input_ended() {
        let prompts = "Player X, enter row col: ".repeat(40);
        let stopped = |input_exhausted, stdout: &str| {
            let mut outcome = outcome(Termination::Signaled(9), stdout, "");
            outcome.stopped = Some(Stop::CpuTime);
            outcome.input_exhausted = input_exhausted;
            judge(&outcome, &Expected::stdout(b""), CompareMode::Lines, LIMITS)
        };
        for (input_exhausted, stdout, read) in [
            (true, prompts.as_str(), InputRead::AllThenRepeats),
            // A silent loop after all its input (a scan with no i++): not scanf's EOF.
            (true, "", InputRead::All),
            (true, "black\n", InputRead::All),
            // A board's row repeats with a period shorter than any prompt.
            (true, " .  .  .  .  .  .  .  .  .  .  .  .", InputRead::All),
            (false, prompts.as_str(), InputRead::Partly),
        ] {
            let finding = stopped(input_exhausted, stdout);
            assert_eq!(
                finding,
                Finding::Timeout {
                    clock: Clock::Cpu,
                    limit_ms: 1000,
                    input: read,
                    busy: true
                },
                "{stdout:?}"
            );
            let message = finding.message(Lang::En);
            assert_eq!(
                message.contains("goes on reading after the input has ended"),
                read == InputRead::AllThenRepeats,
                "{message}"
            );
        }
        let silent = stopped(true, "").message(Lang::En);
        assert!(
            silent.starts_with("used 1 s of CPU time with all its input read, printing nothing that repeats: a loop that never ends"),
            "{silent}"
        );
    }

    #[test]
    fn timeout_says_which_clock_and_whether_the_program_was_busy() {
        let stopped = |stop, cpu_ms: Option<u64>| {
            let mut outcome = outcome(Termination::Signaled(9), "", "");
            outcome.stopped = Some(stop);
            outcome.elapsed = Duration::from_millis(2000);
            outcome.cpu_time = cpu_ms.map(Duration::from_millis);
            outcome.input_exhausted = false;
            judge(&outcome, &Expected::stdout(b""), CompareMode::Lines, LIMITS)
        };
        let timeout = |clock, limit_ms, busy| Finding::Timeout {
            clock,
            limit_ms,
            input: InputRead::Partly,
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
        // Found running when stopped, it loops, however little a busy machine gave it.
        let mut starved = outcome(Termination::Signaled(9), "", "");
        starved.stopped = Some(Stop::WallTime);
        starved.elapsed = Duration::from_millis(2000);
        starved.cpu_time = Some(Duration::from_millis(3));
        starved.input_exhausted = false;
        starved.running_when_stopped = true;
        assert_eq!(
            judge(&starved, &Expected::stdout(b""), CompareMode::Lines, LIMITS),
            timeout(Clock::Wall, 2000, true)
        );
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
        let finding = judge(&stopped, &Expected::stdout(b""), CompareMode::Lines, limits);
        assert_eq!(
            finding,
            Finding::OutputLimit {
                limit_bytes: 64 * 1024,
                input: InputRead::Partly
            }
        );
        assert_eq!(
            finding.message(Lang::En),
            "printed more than 64 KiB and was stopped: a loop that prints without end?"
        );
        stopped.input_exhausted = true;
        stopped.stdout = "Invalid move! Try again.\nPlayer O, enter row col: "
            .repeat(100)
            .into_bytes();
        let message =
            judge(&stopped, &Expected::stdout(b""), CompareMode::Lines, limits).message(Lang::En);
        assert!(
            message.starts_with(
                "printed more than 64 KiB after reading all its input, the same again and again:"
            ) && message.contains("scanf returns EOF"),
            "{message}"
        );
        // Numbers that grow never repeat: a loop that prints, not one on the input's end.
        stopped.stdout = (0..10000)
            .map(|n| format!("{n}\n"))
            .collect::<String>()
            .into_bytes();
        let message =
            judge(&stopped, &Expected::stdout(b""), CompareMode::Lines, limits).message(Lang::En);
        assert!(!message.contains("scanf"), "{message}");
    }

    #[test]
    fn memory_limit_from_the_sandbox_or_from_address_sanitizer() {
        let mut stopped = outcome(Termination::Signaled(11), "", "");
        stopped.stopped = Some(Stop::Memory);
        let finding = judge(&stopped, &Expected::stdout(b""), CompareMode::Lines, LIMITS);
        assert_eq!(finding, Finding::MemoryLimit { limit_mb: 256 });
        assert!(finding.message(Lang::En).contains("256 MiB"));
        assert!(finding.message(Lang::Zh).contains("256 MiB"));
        let asan = outcome(
            Termination::Exited(SANITIZER_EXIT_CODE),
            "",
            "==1==AddressSanitizer: hard rss limit exhausted (256Mb vs 277Mb)\n",
        );
        assert_eq!(
            judge(&asan, &Expected::stdout(b""), CompareMode::Lines, LIMITS).verdict(),
            Verdict::MemoryLimit
        );
        // An allocation refused at the limit on data, the report cut short after its
        // first line.
        let refused = outcome(
            Termination::Exited(SANITIZER_EXIT_CODE),
            "",
            "==7==ERROR: AddressSanitizer: allocator is out of memory trying to allocate \
             0x100000 bytes\n",
        );
        let finding = judge(&refused, &Expected::stdout(b""), CompareMode::Lines, LIMITS);
        assert_eq!(finding, Finding::MemoryLimit { limit_mb: 256 });
        // Its own memory refused at the limit, before the report could begin.
        let raw = outcome(
            Termination::Exited(SANITIZER_EXIT_CODE),
            "",
            "=================================================================\n\
             ERROR: Failed to mmap\n",
        );
        let finding = judge(&raw, &Expected::stdout(b""), CompareMode::Lines, LIMITS);
        assert_eq!(finding, Finding::MemoryLimit { limit_mb: 256 });
    }
}

//! Where a command's time goes, phase by phase, for whoever makes clings faster:
//! `CLINGS_TIMINGS=1 clings test` prints, on stderr at the end, the time spent in each
//! phase (summed over the threads that ran it) and how often it ran.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub enum Phase {
    /// Finding out whether isolation works here.
    Probe,
    /// Building a program, or finding it in the build cache.
    Compile,
    /// Starting a warm sandbox.
    SandboxStart,
    /// Running one case, from its start to its report (with the start of a warm sandbox
    /// when the case needed one).
    Run,
    /// Deciding a case's verdict.
    Judge,
    /// Writing the report.
    Report,
}

const PHASES: [(Phase, &str); 6] = [
    (Phase::Probe, "probe"),
    (Phase::Compile, "compile"),
    (Phase::SandboxStart, "sandbox start"),
    (Phase::Run, "run"),
    (Phase::Judge, "judge"),
    (Phase::Report, "report"),
];

static ON: AtomicBool = AtomicBool::new(false);
static NANOS: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];
static COUNTS: [AtomicU64; 6] = [const { AtomicU64::new(0) }; 6];

/// Starts counting when `CLINGS_TIMINGS` is set; returns when the command started.
pub fn start() -> Instant {
    ON.store(
        std::env::var_os("CLINGS_TIMINGS").is_some(),
        Ordering::Relaxed,
    );
    Instant::now()
}

/// Counts the time from now until the guard is dropped towards `phase`.
pub fn measure(phase: Phase) -> Measure {
    Measure {
        phase,
        started: ON.load(Ordering::Relaxed).then(Instant::now),
    }
}

pub struct Measure {
    phase: Phase,
    /// `None` when nobody asked for the timings.
    started: Option<Instant>,
}

impl Drop for Measure {
    fn drop(&mut self) {
        if let Some(started) = self.started {
            let index = self.phase as usize;
            NANOS[index].fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
            COUNTS[index].fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The table, when asked for: each phase's total time and count, and the whole command's.
pub fn print(started: Instant) {
    if !ON.load(Ordering::Relaxed) {
        return;
    }
    let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
    eprintln!("phase           total ms   count   (summed over threads)");
    for (phase, name) in PHASES {
        let index = phase as usize;
        let nanos = Duration::from_nanos(NANOS[index].load(Ordering::Relaxed));
        let count = COUNTS[index].load(Ordering::Relaxed);
        eprintln!("{name:15} {:8.1} {count:7}", ms(nanos));
    }
    eprintln!("{:15} {:8.1}", "whole command", ms(started.elapsed()));
}

//! The runs in progress, so that Ctrl-C can stop them all at once, and the interruption
//! that the grading code checks before and after each run; watch mode's cancellation of a
//! grading that a save made moot works the same way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::process::Group;

/// The error of a run, or a grading, stopped by Ctrl-C (or SIGTERM, SIGHUP).
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// The error of a grading stopped by [`cancel`]: its result would be of a file that is no
/// longer there.
#[derive(Debug)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("cancelled: the file changed during the grading")
    }
}

impl std::error::Error for Cancelled {}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static CANCELLED: AtomicBool = AtomicBool::new(false);
static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next_id: 0,
    runs: Vec::new(),
    gradings: 0,
});

struct Registry {
    next_id: u64,
    runs: Vec<(u64, Arc<Group>)>,
    /// Gradings under way: they notice the interruption and unwind by themselves.
    gradings: usize,
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    // A panic elsewhere must not stop Ctrl-C from killing the runs.
    crate::util::parallel::lock(&REGISTRY)
}

pub fn check() -> anyhow::Result<()> {
    if INTERRUPTED.load(Ordering::SeqCst) {
        Err(Interrupted.into())
    } else if CANCELLED.load(Ordering::SeqCst) {
        Err(Cancelled.into())
    } else {
        Ok(())
    }
}

/// Stops the runs in progress and makes every run fail with [`Cancelled`] until
/// [`resume`]: for watch mode, whose one grading at a time a save has made moot.
pub fn cancel() {
    CANCELLED.store(true, Ordering::SeqCst);
    kill_runs(&registry());
}

fn kill_runs(registry: &Registry) {
    for (_, group) in &registry.runs {
        group.kill();
    }
}

/// Runs run again after a [`cancel`]: called before each new grading.
pub fn resume() {
    CANCELLED.store(false, Ordering::SeqCst);
}

/// Stops every run in progress and makes every later one fail with [`Interrupted`].
/// Returns whether a grading is under way, which will then end by itself with that error
/// (and clean up after itself); otherwise, or when interrupted a second time, the caller
/// should exit.
pub fn interrupt() -> bool {
    let again = INTERRUPTED.swap(true, Ordering::SeqCst);
    let registry = registry();
    kill_runs(&registry);
    registry.gradings > 0 && !again
}

/// Held while grading: an interruption then waits for the grading to unwind.
pub struct Grading(());

impl Grading {
    pub fn begin() -> anyhow::Result<Grading> {
        registry().gradings += 1;
        let grading = Grading(());
        check()?;
        Ok(grading)
    }
}

impl Drop for Grading {
    fn drop(&mut self) {
        registry().gradings -= 1;
    }
}

/// A run's process group, known to [`interrupt`] for as long as this lives.
pub struct Live(u64);

impl Live {
    pub fn register(group: Arc<Group>) -> Live {
        let mut registry = registry();
        let id = registry.next_id;
        registry.next_id += 1;
        // An interruption between the spawn and now found nothing to kill.
        if check().is_err() {
            group.kill();
        }
        registry.runs.push((id, group));
        Live(id)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        registry().runs.retain(|(id, _)| *id != self.0);
    }
}

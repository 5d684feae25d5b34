//! Which isolation this machine gives, strongest first: bubblewrap's namespaces, the
//! container tier (Landlock, for where namespaces are refused), or limits alone. Found out
//! by trying each with a real run; that bubblewrap works is remembered until the machine,
//! the container, the user or the programs change, and found out again the moment a
//! remembered answer fails.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Result, bail};

use super::container::Container;
use super::isolation::Bubblewrap;
use super::limits::{DEFAULT_FILE_SIZE_BYTES, Limits, Memory, MemoryEnforcement};
use super::{Job, Program, RunFiles, Sandbox, Termination};
use crate::util::timings::{self, Phase};

/// How runs are isolated here.
#[derive(Clone, Debug, PartialEq)]
pub enum Isolation {
    Bubblewrap(Bubblewrap),
    Container(Container),
}

/// The tier runs are isolated by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Bubblewrap,
    Container,
    None,
}

/// Runs here are limited but not isolated: what was tried, why each failed, and what to do.
pub struct Unisolated {
    pub reason: String,
    /// What would isolate them here, naming what is missing.
    pub advice: String,
}

/// Runs are isolated, but not by the strongest tier: what the tier leaves out, and why
/// bubblewrap could not start.
pub struct Weaker {
    pub note: String,
}

/// What `CLINGS_ISOLATION` asks for: any tier that works (unset), or one of them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Best,
    Bubblewrap,
    Container,
    None,
}

impl Wanted {
    fn from_env() -> Result<Wanted> {
        match std::env::var("CLINGS_ISOLATION").as_deref() {
            Err(_) | Ok("") | Ok("auto") => Ok(Wanted::Best),
            Ok("bubblewrap") => Ok(Wanted::Bubblewrap),
            Ok("container") => Ok(Wanted::Container),
            Ok("none") => Ok(Wanted::None),
            Ok(other) => {
                bail!("CLINGS_ISOLATION={other:?}: expected auto, bubblewrap, container or none")
            }
        }
    }
}

/// Starts `count` warm sandboxes for the runs to come, before anything else of the command
/// (reading the course, naming the compiler), where bubblewrap is the tier and is
/// remembered to work here (in `probe_dir`): their start is the longest step before a
/// grading's first run. The grading's own choice of tier, made after, finds them ready;
/// where it chooses otherwise (a course whose runs need another scratch size), they end
/// unused with clings. Nothing is probed here: a first run on a machine waits for its
/// probe as before.
pub fn start_early(probe_dir: &Path, count: usize) {
    if !cfg!(target_os = "linux")
        || !matches!(Wanted::from_env(), Ok(Wanted::Best | Wanted::Bubblewrap))
    {
        return;
    }
    let Ok(bwrap) = Bubblewrap::find(super::user::is_root()) else {
        return;
    };
    if bwrap
        .probe_record(probe_dir)
        .is_some_and(|record| record.exists())
    {
        super::warm::prepare(&bwrap, DEFAULT_FILE_SIZE_BYTES, count);
    }
}

/// How the tier was chosen, kept for finding out again.
pub struct Probe {
    dir: PathBuf,
    /// `--require-isolation`, or other people's code to grade: no tier is an error.
    require: AtomicBool,
    /// Held while the tier is chosen again: runs that failed beside the one that found
    /// out wait for its answer.
    rechecking: Mutex<()>,
    /// The record that bubblewrap worked, when it was taken on its word: a sandbox that
    /// then fails to start makes clings forget it and try every tier again.
    trusted_record: Mutex<Option<PathBuf>>,
}

impl Probe {
    pub fn new(dir: &Path, require: bool) -> Probe {
        Probe {
            dir: dir.to_path_buf(),
            require: AtomicBool::new(require),
            rechecking: Mutex::default(),
            trusted_record: Mutex::default(),
        }
    }
}

/// What choosing a tier found: the tier, and what to say about it.
pub enum Found {
    Isolated(Option<Weaker>),
    Unisolated(Unisolated),
}

impl Sandbox {
    /// The strongest tier that works here, set in this sandbox; or an error when
    /// isolation is required (`--require-isolation`) and none works, naming what was tried.
    pub(super) fn choose_tier(&self) -> Result<Found> {
        let wanted = Wanted::from_env()?;
        let _timing = timings::measure(Phase::Probe);
        let mut failures = Vec::new();
        if !cfg!(target_os = "linux") {
            failures.push("isolation exists only on Linux".to_string());
        } else if wanted == Wanted::None {
            failures.push("CLINGS_ISOLATION=none".to_string());
        }
        let linux = failures.is_empty();
        let mut bubblewrap_failure = None;
        if linux && matches!(wanted, Wanted::Best | Wanted::Bubblewrap) {
            match self.try_bubblewrap() {
                Ok(()) => return Ok(Found::Isolated(None)),
                Err(why) => bubblewrap_failure = Some(why),
            }
        }
        if let Some(why) = &bubblewrap_failure {
            failures.push(format!("bubblewrap: {}", why.text));
        }
        let mut container_failure = None;
        if linux && matches!(wanted, Wanted::Best | Wanted::Container) {
            match self.try_container() {
                Ok(container) => {
                    let note = match &bubblewrap_failure {
                        Some(why) => format!(
                            "student programs are isolated by the container tier ({}), \
                             since bubblewrap could not start: {}",
                            container.describe(),
                            why.text
                        ),
                        None => format!(
                            "student programs are isolated by the container tier ({}), as \
                             CLINGS_ISOLATION=container asks",
                            container.describe()
                        ),
                    };
                    return Ok(Found::Isolated(Some(Weaker { note })));
                }
                Err(why) => {
                    failures.push(format!("container tier: {why}"));
                    container_failure = Some(why);
                }
            }
        }
        self.set_isolation(None);
        let reason = failures.join("; ");
        let advice = advice(
            wanted,
            bubblewrap_failure.as_ref(),
            container_failure.is_some(),
        );
        if self.probe.require.load(Ordering::SeqCst) {
            bail!(
                "--require-isolation: student programs cannot be isolated here ({reason}): {advice}"
            );
        }
        Ok(Found::Unisolated(Unisolated { reason, advice }))
    }

    /// From now on, no tier is an error, should the tier be chosen again: the sandbox runs
    /// other people's code.
    pub fn require_isolation(&self) {
        self.probe.require.store(true, Ordering::SeqCst);
    }

    /// After a run failed in `tried`: whether to run it again in a tier chosen since, by
    /// another run, or now, when `tried` was bubblewrap taken on a remembered answer,
    /// which is forgotten. `false` when the failure is the run's own, to be reported.
    pub(super) fn recheck_tier(&self, tried: &Option<Arc<Isolation>>) -> Result<bool> {
        let _rechecking = self
            .probe
            .rechecking
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let now = self.isolation();
        let same = match (&now, tried) {
            (Some(now), Some(tried)) => Arc::ptr_eq(now, tried),
            (None, None) => true,
            _ => false,
        };
        if !same {
            return Ok(true);
        }
        let record = self
            .probe
            .trusted_record
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let Some(record) = record else {
            return Ok(false);
        };
        let _ = std::fs::remove_file(&record);
        super::warm::end_all();
        match self.choose_tier()? {
            Found::Isolated(None) => {}
            Found::Isolated(Some(weaker)) => eprintln!("warning: {}", weaker.note),
            Found::Unisolated(unisolated) => eprintln!(
                "warning: bubblewrap worked here before but no longer does, and programs now \
                 run without isolation ({}): {}",
                unisolated.reason, unisolated.advice
            ),
        }
        Ok(true)
    }

    /// Turns bubblewrap on if it works here: remembered, or tried.
    fn try_bubblewrap(&self) -> Result<(), BubblewrapFailure> {
        let bwrap = Bubblewrap::find(self.root).map_err(|text| BubblewrapFailure {
            text,
            installed: false,
        })?;
        let record = bwrap.probe_record(&self.probe.dir);
        let isolation = Arc::new(Isolation::Bubblewrap(bwrap));
        if record.as_ref().is_some_and(|record| record.exists()) {
            *self
                .probe
                .trusted_record
                .lock()
                .unwrap_or_else(|e| e.into_inner()) = record;
            self.set_isolation(Some(isolation));
            return Ok(());
        }
        // Whether namespaces are allowed (containers often forbid them, and some systems
        // give a user namespace no capability, so that its helper cannot make each run's
        // namespaces) shows only by trying: a real run, in a warm sandbox as a student's
        // program runs, of a program that does nothing.
        self.probe_run(&isolation)
            .map_err(|text| BubblewrapFailure {
                text,
                installed: true,
            })?;
        // Only an optimisation: a record that cannot be written costs a probe.
        if let Some(record) = record {
            let _ = crate::util::atomic::write(&record, b"bubblewrap works here\n");
        }
        self.set_isolation(Some(isolation));
        Ok(())
    }

    /// Turns the container tier on if Landlock and the helper's confinement work here.
    fn try_container(&self) -> Result<Container, String> {
        let container = Container::detect()?;
        let isolation = Arc::new(Isolation::Container(container));
        self.probe_run(&isolation)?;
        self.set_isolation(Some(isolation));
        Ok(container)
    }

    /// A run in `isolation`, as a student's program runs, of a program that does nothing.
    fn probe_run(&self, isolation: &Arc<Isolation>) -> Result<(), String> {
        let limits = Limits {
            wall_time: Duration::from_secs(10),
            cpu_time: Duration::from_secs(10),
            memory: Memory {
                bytes: 256 << 20,
                enforcement: MemoryEnforcement::AddressSpace,
            },
            processes: 4,
            // The size most runs have: the probe's warm sandbox serves them next.
            file_size_bytes: DEFAULT_FILE_SIZE_BYTES,
            open_files: 64,
            output_bytes: 4096,
        };
        let probe = Job {
            program: Program::Built(Path::new("/bin/true")),
            args: &[],
            input: None,
            env: &[],
            workdir: None,
            files: RunFiles::default(),
            conversation: None,
            folders: None,
        };
        // A sandbox that died before its run (killed from outside) proves nothing: a second
        // try starts another.
        let isolation = Some(Arc::clone(isolation));
        let ran = self
            .run_in(&isolation, &probe, limits)
            .or_else(|_| self.run_in(&isolation, &probe, limits));
        match ran {
            Ok(outcome) if outcome.termination == Termination::Exited(0) => Ok(()),
            Ok(outcome) => Err(format!(
                "a program that does nothing ended with {:?}: {}",
                outcome.termination,
                String::from_utf8_lossy(&outcome.stderr).trim()
            )),
            Err(err) => Err(format!("{err:#}")),
        }
    }

    pub(super) fn isolation(&self) -> Option<Arc<Isolation>> {
        self.isolation
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn set_isolation(&self, isolation: Option<Arc<Isolation>>) {
        *self.isolation.write().unwrap_or_else(|e| e.into_inner()) = isolation;
    }
}

/// Why bubblewrap did not isolate runs here.
struct BubblewrapFailure {
    text: String,
    /// It is installed, and failed to start (namespaces refused), rather than missing.
    installed: bool,
}

/// What would isolate runs here, naming what is missing.
fn advice(
    wanted: Wanted,
    bubblewrap: Option<&BubblewrapFailure>,
    container_failed: bool,
) -> String {
    if wanted == Wanted::None {
        return "unset CLINGS_ISOLATION".into();
    }
    let mut steps = Vec::new();
    match bubblewrap {
        Some(BubblewrapFailure {
            installed: false, ..
        }) => steps.push("install bubblewrap (`sudo apt install bubblewrap`)".to_string()),
        Some(BubblewrapFailure {
            installed: true, ..
        }) => steps.push(
            "allow bubblewrap its namespaces: on Ubuntu 24.04 an AppArmor profile for bwrap \
             or `sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0`, elsewhere \
             `sudo sysctl kernel.unprivileged_userns_clone=1` (or user.max_user_namespaces \
             above 0); in a container, run it with CAP_SYS_ADMIN"
                .to_string(),
        ),
        None => {}
    }
    if wanted == Wanted::Bubblewrap {
        steps.push("or leave CLINGS_ISOLATION unset, for the container tier".to_string());
    }
    if container_failed {
        steps.push(
            "or use a kernel with Landlock (Linux 5.13 or later, `landlock` in the kernel's \
             `lsm=`), whose system calls the container's seccomp profile allows, for the \
             container tier"
                .to_string(),
        );
    }
    format!("{} (see docs/security.md)", steps.join("; "))
}

//! The container tier of isolation, for where bubblewrap cannot start because namespaces
//! are refused: a Docker or Kubernetes container without `CAP_SYS_ADMIN` (Gradescope's,
//! GitLab's and GitHub's container jobs), or Ubuntu 24.04, whose AppArmor refuses
//! unprivileged user namespaces. None of it needs a namespace or a privilege:
//!
//! - Landlock (Linux 5.13+, allowed by Docker's default seccomp profile) confines what the
//!   program's processes may open: the system's libraries and programs to read and run, a
//!   few device files, `/proc`, and its own run directory, the one place it may change.
//!   Where the kernel's ABI allows, TCP is refused too, and so are signals and abstract
//!   UNIX sockets that cross the confinement.
//! - The system call filter, a user of its own per run (when clings is root), the rlimits
//!   and, where a cgroup can be had, its limits are as in every tier.
//!
//! What it does not give, beside bubblewrap: a pid namespace (the run sees the machine's
//! processes in `/proc`, and their command lines) and the machine's counters there.

use std::path::Path;

#[cfg(target_os = "linux")]
use ::landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd,
    RestrictionStatus, Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus,
    Scope,
};
use serde::{Deserialize, Serialize};

use super::Folders;
use super::system_dirs::SYSTEM_DIRS;

#[cfg(target_os = "linux")]
/// The newest ABI whose rights clings asks for; a kernel's older ABI gets what it has.
const NEWEST_ABI: ABI = ABI::V7;

/// Device files a C program may open: what reads nothing of the machine, and what writes
/// nowhere.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// Landlock works on this kernel, at this ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Container {
    pub abi: i32,
}

impl Container {
    /// Whether Landlock is there to confine runs; else why not.
    #[cfg(not(target_os = "linux"))]
    pub fn detect() -> Result<Container, String> {
        Err("Landlock exists only on Linux".into())
    }

    /// Whether Landlock is there to confine runs; else why not.
    #[cfg(target_os = "linux")]
    pub fn detect() -> Result<Container, String> {
        match landlock_abi() {
            Ok(abi) if abi >= 1 => Ok(Container { abi }),
            Ok(abi) => Err(format!("Landlock answers ABI {abi}")),
            Err(errno) if errno == libc::EOPNOTSUPP => Err(
                "Landlock is built into this kernel but not enabled (add `landlock` to the \
                 kernel's `lsm=` boot parameter)"
                    .into(),
            ),
            Err(errno) if errno == libc::ENOSYS => Err(
                "Landlock is missing: the kernel is older than 5.13 or was built without it".into(),
            ),
            Err(errno) => Err(format!(
                "Landlock is refused ({}): a seccomp profile older than Docker 23's blocks it",
                std::io::Error::from_raw_os_error(errno)
            )),
        }
    }

    /// What a run may reach: `workdir` to change, `program` (its copy, beside it) and the
    /// system's directories as they are here to read and run; and its `folders`, the one
    /// to read and run, the other to change.
    pub fn confinement(
        &self,
        program: Option<&Path>,
        workdir: &Path,
        folders: Option<Folders>,
    ) -> Confinement {
        let existing = |paths: &[&str]| -> Vec<String> {
            let paths = paths.iter().filter(|path| Path::new(path).exists());
            paths.map(|path| path.to_string()).collect()
        };
        let text = |path: &Path| path.to_string_lossy().into_owned();
        Confinement {
            system: existing(&SYSTEM_DIRS),
            devices: existing(&DEVICES),
            program: program.map(text),
            workdir: text(workdir),
            read: folders.map(|folders| text(folders.read)),
            keep: folders.map(|folders| text(folders.keep)),
        }
    }

    /// What this tier leaves out at this ABI, for the message that names the tier.
    pub fn describe(&self) -> String {
        let mut missing = Vec::new();
        if self.abi < 3 {
            missing.push("truncate(2)");
        }
        if self.abi < 4 {
            missing.push("TCP by Landlock (the system call filter still refuses it)");
        }
        if self.abi < 6 {
            missing.push("signals to the machine's other processes of the same user");
        }
        match missing.is_empty() {
            true => format!("Landlock ABI {}", self.abi),
            false => format!(
                "Landlock ABI {}, which does not confine {}",
                self.abi,
                missing.join(", ")
            ),
        }
    }
}

/// The paths one run may reach, in the run's orders to the helper: it builds the rules
/// before it forks the program, which enforces them on itself just before exec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confinement {
    /// Read and run.
    pub system: Vec<String>,
    /// Read and write, as files (not create, not list).
    pub devices: Vec<String>,
    /// The program's copy: read and run.
    pub program: Option<String>,
    /// Everything a program may do with files, below this directory.
    pub workdir: String,
    /// The program's folder to read and run (see [`Folders`]).
    #[serde(default)]
    pub read: Option<String>,
    /// Its folder to change as its working directory.
    #[serde(default)]
    pub keep: Option<String>,
}

impl Confinement {
    /// The rules, made in the helper before it forks the program: opening the paths and
    /// making the ruleset allocate, which the child of a fork may not do.
    #[cfg(target_os = "linux")]
    pub fn rules(&self) -> anyhow::Result<Rules> {
        use anyhow::Context;
        let all = AccessFs::from_all(NEWEST_ABI);
        let read_and_run = AccessFs::from_read(NEWEST_ABI) | AccessFs::Execute;
        let device = AccessFs::ReadFile | AccessFs::WriteFile;
        let program = AccessFs::ReadFile | AccessFs::Execute;
        let mut ruleset = Ruleset::default()
            // A right this kernel lacks is left out (the tier's description says which);
            // Landlock itself missing is an error.
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(all)?
            .handle_access(AccessNet::from_all(NEWEST_ABI))?
            .scope(Scope::from_all(NEWEST_ABI))?
            .create()
            .context("cannot create the run's Landlock rules")?;
        let mut rules: Vec<(&str, _)> = Vec::new();
        rules.extend(self.system.iter().map(|dir| (dir.as_str(), read_and_run)));
        rules.extend(self.devices.iter().map(|file| (file.as_str(), device)));
        rules.extend(self.program.iter().map(|file| (file.as_str(), program)));
        rules.extend(self.read.iter().map(|dir| (dir.as_str(), read_and_run)));
        rules.push((self.workdir.as_str(), all));
        rules.extend(self.keep.iter().map(|dir| (dir.as_str(), all)));
        for (path, access) in rules {
            ruleset = allow(ruleset, path, access)?;
        }
        let helper = ruleset
            .try_clone()
            .context("cannot share the run's Landlock rules")?;
        Ok(Rules {
            program: ruleset,
            helper: HelperSide(helper),
        })
    }
}

/// One run's Landlock rules, one ruleset seen from both sides of the fork: the helper adds
/// the program's own `/proc/PID` once the program's process exists; the program's process
/// waits for that, then enforces them.
#[cfg(target_os = "linux")]
pub struct Rules {
    pub program: RulesetCreated,
    pub helper: HelperSide,
}

/// The helper's side of a run's rules.
#[cfg(target_os = "linux")]
pub struct HelperSide(RulesetCreated);

#[cfg(target_os = "linux")]
impl HelperSide {
    /// Lets the run read `/proc/PID` of its program, which a sanitizer reads (its memory
    /// map), and nothing else of `/proc`, where the machine's other processes' names,
    /// command lines and counters would be open to it, and through them another run's.
    pub fn allow_own_proc(self, pid: libc::pid_t) -> anyhow::Result<()> {
        let own = format!("/proc/{pid}");
        allow(self.0, &own, AccessFs::from_read(NEWEST_ABI)).map(drop)
    }
}

#[cfg(target_os = "linux")]
fn allow(
    ruleset: RulesetCreated,
    path: &str,
    access: ::landlock::BitFlags<AccessFs>,
) -> anyhow::Result<RulesetCreated> {
    use anyhow::Context;
    let fd = PathFd::new(path).with_context(|| format!("cannot open {path}"))?;
    ruleset
        .add_rule(PathBeneath::new(fd, access))
        .with_context(|| format!("cannot let the run reach {path}"))
}

/// In the forked child, just before exec: confines this process and whatever it starts.
/// `false` when Landlock enforced nothing.
#[cfg(target_os = "linux")]
pub fn enforce(ruleset: RulesetCreated) -> bool {
    matches!(
        ruleset.restrict_self(),
        Ok(RestrictionStatus {
            ruleset: RulesetStatus::FullyEnforced | RulesetStatus::PartiallyEnforced,
            ..
        })
    )
}

/// The kernel's Landlock ABI version, or the errno that says why there is none.
#[cfg(target_os = "linux")]
fn landlock_abi() -> Result<i32, i32> {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute and size 0, the call only reports the version.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    match version {
        ..0 => Err(std::io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::ENOSYS)),
        version => Ok(version as i32),
    }
}

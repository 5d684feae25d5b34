//! Limits per run, not per process: each run gets a cgroup of its own, where the machine
//! allows one (root, a writable cgroup file system with the memory and pids controllers).
//!
//! RLIMIT_AS and RLIMIT_NPROC hold per process (per user): sixteen processes of 200 MiB each
//! are 3.2 GiB in a run "limited" to 256 MiB. A cgroup caps the memory of all the run's
//! processes together and how many processes and threads it has at once, and tells
//! afterwards whether the run hit the memory limit (so that a run the OOM killer ended is
//! judged `memory_limit`, not "crashed by SIGKILL") and how much it used at its peak.
//!
//! Memory is charged to the cgroup of the process that first touches a page, tmpfs pages
//! included: the files a run writes into its scratch tmpfs (mounted by bubblewrap after it
//! joined) count against the same limit as its heap, so a program cannot park memory
//! there either. Only the process that joins has to be inside: everything it forks later
//! is born in the run's cgroup and cannot leave it (moving needs write access to the
//! cgroup file system, which a run has not).
//!
//! Where run cgroups go:
//! - cgroup v2 (one hierarchy, `/sys/fs/cgroup` on current distributions and GitHub's
//!   runners): in a `clings` cgroup that holds no process itself, because v2 gives
//!   controllers to a cgroup's children only while it has no processes of its own (the
//!   "no internal processes" rule; the root is exempt). It is made below this process's own
//!   cgroup where that can hand on the controllers (in practice only when it is the root of
//!   a cgroup namespace), else below the root of the hierarchy.
//! - cgroup v1 (a hierarchy per controller, hybrid systems): right below this process's own
//!   cgroup in the memory hierarchy and in the pids hierarchy (v1 has no such rule).
//!
//! A run cgroup is named `clings-<pid namespace>-<pid>-<counter>`. The pid tells whose it
//! is: the next clings kills and removes the cgroups of one that was killed before it could
//! (SIGKILL, the OOM killer), and leaves those of a live one alone. The pid
//! namespace is in the name because a pid means a process only in its own namespace: a
//! clings in another container that shares the hierarchy must not take our live runs for
//! stale ones.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// The start of every run cgroup's name.
const PREFIX: &str = "clings-";
/// The cgroup v2 parent of run cgroups.
const V2_PARENT: &str = "clings";
/// How long the processes of a killed run may take to leave its cgroup, and then the
/// kernel to let the directory go.
const PATIENCE: Duration = Duration::from_secs(2);

/// Memory a run may leave charged to its cgroup, all its processes gone, for the cgroup to
/// serve the next run: what an ordinary run leaves, kernel objects (the dentries and inodes
/// of what it looked up) and page cache, which the kernel takes back when the next run
/// needs it. After each of the course's 228 runs (cgroup v1, Linux 6.18), its cgroup held
/// 64 KiB to 1.9 MiB (half of them under 0.5 MiB), under 1.2 MiB once reclaimed.
const SETTLED_BYTES: u64 = 2 << 20;

/// Numbers the run cgroups of this process.
static COUNTER: AtomicU64 = AtomicU64::new(0);
/// Cgroups named with this process's own pid are stale only before it made any.
static OWN_PID_SWEPT: Once = Once::new();

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

impl Version {
    /// The file a run's one-threaded process joins a cgroup by, writing "0". v1's `tasks`
    /// moves the writing thread alone, which the kernel does without the lock that moving
    /// a whole process (`cgroup.procs`) write-locks; taking that lock waits out an RCU
    /// grace period whenever no cgroup has been joined for a few milliseconds: 5 to 20 ms
    /// here, paid by the first run on each worker, and by every run after a pause (watch
    /// mode). v2 has `cgroup.threads` only in threaded subtrees.
    fn join_file(self) -> &'static str {
        match self {
            Version::V1 => "tasks",
            Version::V2 => "cgroup.procs",
        }
    }
}

/// Where run cgroups can be made on this machine, found out once per clings process.
#[derive(Clone, Debug)]
pub struct Cgroups {
    version: Version,
    /// v2: the one parent; v1: the memory parent, then the pids parent.
    parents: Vec<Place>,
    /// This process's pid namespace, part of the name of every run cgroup.
    namespace: u64,
}

/// A cgroup directory, and how /proc/<pid>/cgroup names it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    dir: PathBuf,
    /// Its path in the hierarchy, as /proc/<pid>/cgroup shows it (`/a/b`).
    path: String,
    /// The hierarchy's controller under v1 (`memory`, `pids`); empty under v2.
    controller: &'static str,
}

impl Cgroups {
    /// Finds cgroup v2 or v1 with the memory and pids controllers and a place to make run
    /// cgroups in (making one to be sure), and removes the stale cgroups of clings
    /// processes that no longer exist. The error says why runs cannot have cgroups here.
    pub fn detect() -> Result<Cgroups, String> {
        if !cfg!(target_os = "linux") {
            return Err("cgroups exist only on Linux".into());
        }
        let read = |path: &str| {
            fs::read_to_string(path).map_err(|err| format!("cannot read {path}: {err}"))
        };
        let mounts = parse_mounts(&read("/proc/self/mountinfo")?);
        let own = parse_memberships(&read("/proc/self/cgroup")?);
        let cgroups = Cgroups::find(&mounts, &own, pid_namespace())?;
        let me = std::process::id();
        cgroups.sweep(|pid| pid != me && !alive(pid));
        // Another clings that had this pid before may have left cgroups that a new one
        // would collide with. Once per process, before any run cgroup of its own exists
        // (call_once makes concurrent callers wait until it is done).
        OWN_PID_SWEPT.call_once(|| cgroups.sweep(|pid| pid == me));
        // Writable directories and the limit files show only by making a run cgroup.
        RunCgroup::create(&cgroups, 64 << 20, 16)
            .map_err(|err| format!("cannot make a cgroup for a run: {err}"))?;
        Ok(cgroups)
    }

    #[cfg(test)]
    /// Where run cgroups go, for a message.
    pub fn describe(&self) -> String {
        let dirs: Vec<String> = self
            .parents
            .iter()
            .map(|place| place.dir.display().to_string())
            .collect();
        let version = match self.version {
            Version::V1 => "v1",
            Version::V2 => "v2",
        };
        format!("cgroup {version} in {}", dirs.join(" and "))
    }

    /// cgroup v2 if it has the controllers, else v1.
    fn find(mounts: &[Mount], own: &[Membership], namespace: u64) -> Result<Cgroups, String> {
        let v2 = match v2_parent(mounts, own) {
            Ok(parent) => {
                return Ok(Cgroups {
                    version: Version::V2,
                    parents: vec![parent],
                    namespace,
                });
            }
            Err(reason) => reason,
        };
        let v1 = match v1_parents(mounts, own) {
            Ok(parents) => {
                return Ok(Cgroups {
                    version: Version::V1,
                    parents,
                    namespace,
                });
            }
            Err(reason) => reason,
        };
        Err(format!("cgroup v2: {v2}; cgroup v1: {v1}"))
    }

    /// Kills and removes the run cgroups of this pid namespace whose pid is `stale`.
    fn sweep(&self, stale: impl Fn(u32) -> bool) {
        for parent in &self.parents {
            let Ok(entries) = fs::read_dir(&parent.dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some((namespace, pid)) = name.to_str().and_then(parse_name) else {
                    continue;
                };
                if namespace != self.namespace || !stale(pid) {
                    continue;
                }
                if !entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                    continue;
                }
                // Dropping it kills what is left and removes the directory.
                drop(RunCgroup {
                    version: self.version,
                    members: vec![Member::new(parent.child(&name.to_string_lossy()))],
                    events_before: MemoryEvents::default(),
                });
            }
        }
    }
}

impl Place {
    fn child(&self, name: &str) -> Place {
        Place {
            dir: self.dir.join(name),
            path: join_cgroup_path(&self.path, name),
            controller: self.controller,
        }
    }
}

/// The v2 parent of run cgroups, made ready: below this process's own cgroup, else below
/// the root of the hierarchy.
fn v2_parent(mounts: &[Mount], own: &[Membership]) -> Result<Place, String> {
    let own_path = own
        .iter()
        .find(|membership| membership.is_v2())
        .map(|membership| membership.path.as_str())
        .ok_or("this process is in no cgroup v2 hierarchy")?;
    let (mount, own_dir) = mounts
        .iter()
        .filter(|mount| mount.fstype == "cgroup2")
        .find_map(|mount| Some((mount, mount.locate(own_path)?)))
        .ok_or("no cgroup v2 file system is mounted")?;
    let controllers =
        fs::read_to_string(mount.point.join("cgroup.controllers")).unwrap_or_default();
    let missing = missing_controllers(&controllers);
    if !missing.is_empty() {
        return Err(format!(
            "controller missing: {} not in {} (bound to cgroup v1, or not in the kernel)",
            missing.join(" and "),
            mount.point.join("cgroup.controllers").display()
        ));
    }
    if mount.read_only {
        return Err(format!("{} is mounted read-only", mount.point.display()));
    }
    let mut bases = vec![(own_dir.clone(), own_path.to_string())];
    if own_dir != mount.point {
        bases.push((mount.point.clone(), mount.root.clone()));
    }
    let mut reasons = Vec::new();
    for (dir, path) in bases {
        match v2_prepare(&dir, &path) {
            Ok(parent) => return Ok(parent),
            Err(reason) => reasons.push(reason),
        }
    }
    Err(reasons.join("; "))
}

/// Makes `<dir>/clings` and gives it and its children the memory and pids controllers.
fn v2_prepare(dir: &Path, path: &str) -> Result<Place, String> {
    enable_controllers(dir).map_err(|err| controllers_refused(dir, &err))?;
    let parent = Place {
        dir: dir.join(V2_PARENT),
        path: join_cgroup_path(path, V2_PARENT),
        controller: "",
    };
    match fs::create_dir(&parent.dir) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
        Err(err) => {
            return Err(format!(
                "cannot create {}: {}",
                parent.dir.display(),
                explain(&err)
            ));
        }
    }
    enable_controllers(&parent.dir).map_err(|err| controllers_refused(&parent.dir, &err))?;
    Ok(parent)
}

/// Why the children of cgroup `dir` cannot have the memory and pids controllers.
fn controllers_refused(dir: &Path, err: &io::Error) -> String {
    let busy = match err.raw_os_error() {
        Some(libc::EBUSY) => {
            " (it holds processes, and cgroup v2 gives controllers only to the children of a \
             cgroup without processes)"
        }
        _ => "",
    };
    format!(
        "cannot give the memory and pids controllers to the children of {}: {}{busy}",
        dir.display(),
        explain(err),
    )
}

/// Adds memory and pids to `dir/cgroup.subtree_control` unless they are there.
fn enable_controllers(dir: &Path) -> io::Result<()> {
    let file = dir.join("cgroup.subtree_control");
    if missing_controllers(&fs::read_to_string(&file)?).is_empty() {
        return Ok(());
    }
    set(&file, "+memory +pids")
}

fn missing_controllers(list: &str) -> Vec<&'static str> {
    ["memory", "pids"]
        .into_iter()
        .filter(|wanted| !list.split_whitespace().any(|have| have == *wanted))
        .collect()
}

/// This process's own cgroups in the memory and pids hierarchies of cgroup v1.
fn v1_parents(mounts: &[Mount], own: &[Membership]) -> Result<Vec<Place>, String> {
    let mut parents = Vec::new();
    for controller in ["memory", "pids"] {
        let mount = mounts
            .iter()
            .find(|mount| mount.fstype == "cgroup" && mount.has_option(controller))
            .ok_or_else(|| format!("controller missing: no {controller} hierarchy is mounted"))?;
        if mount.read_only {
            return Err(format!("{} is mounted read-only", mount.point.display()));
        }
        let own_path = own
            .iter()
            .find(|membership| membership.controllers.split(',').any(|c| c == controller))
            .map_or("/", |membership| membership.path.as_str());
        // A mount of part of the hierarchy may not show this process's cgroup: its top.
        let (dir, path) = match mount.locate(own_path) {
            Some(dir) => (dir, own_path.to_string()),
            None => (mount.point.clone(), mount.root.clone()),
        };
        parents.push(Place {
            dir,
            path,
            controller,
        });
    }
    Ok(parents)
}

/// One run's cgroup (under v1, one per hierarchy): limits set, ready to be joined. Read
/// what it tells ([`RunCgroup::memory_exceeded`], the peak) before dropping it: the drop
/// kills whatever is left in it and removes it (an ended process that is not reaped yet
/// does not hold it).
pub struct RunCgroup {
    version: Version,
    /// v2: one; v1: memory, then pids.
    members: Vec<Member>,
    /// The memory events counted when the current run began: a cgroup serves run after
    /// run, and the kernel's counters only grow.
    events_before: MemoryEvents,
}

/// What a run's memory came to (see [`RunCgroup::memory_since_begin`]).
pub struct MemorySince {
    /// The OOM killer took a process of the run: it ran out of memory at the limit,
    /// whatever its program did next (a parent whose children were taken may still exit 0).
    pub oom_killed: bool,
    /// It came up against its limit since it began (see [`RunCgroup::begin_run`]). Ask
    /// only about a run that did not succeed: a run that reached the limit and had page
    /// cache to give back went on.
    pub limit_reached: bool,
}

/// What the kernel counts of a cgroup's memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct MemoryEvents {
    /// Times it came up against its limit, reclaimed or not.
    limit: u64,
    /// Processes the OOM killer took in it.
    oom_kills: u64,
}

struct Member {
    place: Place,
    /// The file a process joins by, opened beforehand for [`Joiner::join`] (see
    /// [`Version::join_file`]).
    join: Option<File>,
    /// The counters read after every run, each opened once:
    /// opening a cgroup file walks the cgroup file system, which costs several times what
    /// reading it again from its start does, and these reads come between one run and the
    /// next.
    read: Mutex<Vec<(&'static str, File)>>,
}

/// What a child needs to join a run cgroup between fork and exec: the descriptors of the
/// files it joins by. Copy, so that a `pre_exec` closure can own it; valid while the
/// [`RunCgroup`] it came from lives.
#[derive(Clone, Copy, Debug)]
pub struct Joiner {
    fds: [RawFd; 2],
    count: usize,
}

impl RunCgroup {
    /// A fresh cgroup for one run, limited to `memory_bytes` of memory (no swap) and
    /// `max_processes` processes and threads. Everything that joins counts: with isolation
    /// bubblewrap and the helper's threads too.
    pub fn create(
        cgroups: &Cgroups,
        memory_bytes: u64,
        max_processes: u64,
    ) -> io::Result<RunCgroup> {
        let me = std::process::id();
        let mut attempts = 0;
        loop {
            let number = COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!("{PREFIX}{}-{me}-{number}", cgroups.namespace);
            attempts += 1;
            match RunCgroup::create_named(cgroups, &name, memory_bytes, max_processes) {
                // Left by an earlier process with this pid that detect() could not remove
                // (its processes would not die): take the next number.
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists && attempts < 100 => {}
                made => return made,
            }
        }
    }

    fn create_named(
        cgroups: &Cgroups,
        name: &str,
        memory_bytes: u64,
        max_processes: u64,
    ) -> io::Result<RunCgroup> {
        let mut run = RunCgroup {
            version: cgroups.version,
            members: Vec::with_capacity(cgroups.parents.len()),
            events_before: MemoryEvents::default(),
        };
        for parent in &cgroups.parents {
            let place = parent.child(name);
            fs::create_dir(&place.dir)
                .map_err(|err| failed(format!("cannot create {}", place.dir.display()), err))?;
            // From here on, dropping `run` removes it again.
            run.members.push(Member::new(place));
        }
        run.limit(memory_bytes, max_processes)?;
        for member in &mut run.members {
            let path = member.place.dir.join(run.version.join_file());
            let join = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|err| failed(format!("cannot open {}", path.display()), err))?;
            member.join = Some(join);
        }
        Ok(run)
    }

    fn limit(&self, memory_bytes: u64, max_processes: u64) -> io::Result<()> {
        let memory = self.dir("memory");
        match self.version {
            Version::V2 => {
                set_in(memory, "memory.max", &memory_bytes.to_string())?;
                // Swap would let a run hold more than its limit, and slow the machine.
                set_if_present(memory, "memory.swap.max", "0")?;
            }
            Version::V1 => {
                // A new v1 cgroup inherits its parent's oom_kill_disable: set, a run at
                // its limit would hang instead of being killed.
                set_if_present(memory, "memory.oom_control", "0")?;
                set_in(memory, "memory.limit_in_bytes", &memory_bytes.to_string())?;
                // Memory plus swap; it may never be below the memory limit, so it comes
                // second.
                set_if_present(
                    memory,
                    "memory.memsw.limit_in_bytes",
                    &memory_bytes.to_string(),
                )?;
            }
        }
        set_in(self.dir("pids"), "pids.max", &max_processes.to_string())
    }

    /// The file each of the run's cgroups is joined by, open for writing: for a warm
    /// sandbox's helper, whose child joins by writing "0" to each.
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.members
            .iter()
            .filter_map(|member| Some(member.join.as_ref()?.as_raw_fd()))
            .collect()
    }

    /// The descriptors to join with from a `pre_exec` closure.
    pub fn joiner(&self) -> Joiner {
        let mut joiner = Joiner {
            fds: [-1; 2],
            count: 0,
        };
        for join in self
            .members
            .iter()
            .filter_map(|member| member.join.as_ref())
        {
            joiner.fds[joiner.count] = join.as_raw_fd();
            joiner.count += 1;
        }
        joiner
    }

    /// What the run's memory came to since it began, from one reading of the counters.
    pub fn memory_since_begin(&self) -> MemorySince {
        let now = self.memory_events();
        MemorySince {
            oom_killed: now.oom_kills > self.events_before.oom_kills,
            limit_reached: now.limit > self.events_before.limit,
        }
    }

    /// Starts counting for a new run in this cgroup, which must be empty (see
    /// [`RunCgroup::kill_all`]): joining a cgroup costs less than making one.
    pub fn begin_run(&mut self) {
        self.events_before = self.memory_events();
    }

    /// Whether the cgroup, emptied by [`RunCgroup::kill_all`], may serve another run: it
    /// counts no process any more (one never reaped would take from the next run's), and no
    /// more than [`SETTLED_BYTES`] is still charged to it once the kernel took back what it
    /// could. A hostile run can leave memory charged after its processes are gone (a file
    /// on a tmpfs outside the run, kernel memory): in a cgroup that served on, every later
    /// run would have that much less, and end at `memory_limit` below its limit.
    pub fn reusable(&self) -> bool {
        if self.number("pids", "pids.current") != Some(0) {
            return false;
        }
        let settled = || {
            self.memory_charged()
                .is_some_and(|bytes| bytes <= SETTLED_BYTES)
        };
        // The reads cost 10 to 30 µs, a reclaim 0.25 to 6 ms (cgroup v1, draining every CPU's
        // lists first); most runs leave less than the threshold.
        if settled() {
            return true;
        }
        self.reclaim();
        settled()
    }

    /// The memory charged to the cgroup now, kernel memory included.
    fn memory_charged(&self) -> Option<u64> {
        let name = match self.version {
            Version::V2 => "memory.current",
            Version::V1 => "memory.usage_in_bytes",
        };
        self.number("memory", name)
    }

    /// Asks the kernel to take back what it can of the memory charged to the cgroup, which
    /// holds no process: page cache and reclaimable kernel objects. A file's pages on a
    /// tmpfs stay while the file exists (there is no swap for them to go to).
    fn reclaim(&self) {
        let memory = self.dir("memory");
        // What is still charged afterwards decides: the write's own result says nothing
        // more (v2 refuses with EAGAIN when it could not take all it was asked for, and
        // kernels before 5.19 lack memory.reclaim).
        let _ = match self.version {
            Version::V2 => match self.memory_charged() {
                Some(bytes) => set(&memory.join("memory.reclaim"), &bytes.to_string()),
                None => Ok(()),
            },
            Version::V1 => set(&memory.join("memory.force_empty"), "0"),
        };
    }

    /// How often the cgroup's memory limit was hit, or its OOM killer ran, so far.
    fn memory_events(&self) -> MemoryEvents {
        let read = |name| self.read("memory", name).unwrap_or_default();
        match self.version {
            Version::V2 => {
                let events = read("memory.events");
                let oom_kills = counter(&events, "oom_kill").unwrap_or(0);
                let limit: u64 = ["max", "oom"]
                    .into_iter()
                    .filter_map(|key| counter(&events, key))
                    .sum();
                MemoryEvents {
                    limit: limit + oom_kills,
                    oom_kills,
                }
            }
            Version::V1 => {
                let failures: u64 = ["memory.failcnt", "memory.memsw.failcnt"]
                    .into_iter()
                    .filter_map(|name| self.number("memory", name))
                    .sum();
                let oom_kills = counter(&read("memory.oom_control"), "oom_kill").unwrap_or(0);
                MemoryEvents {
                    limit: failures + oom_kills,
                    oom_kills,
                }
            }
        }
    }

    #[cfg(test)]
    /// The most memory the run used at once, all its processes and tmpfs pages together;
    /// `None` where the kernel does not tell (cgroup v2 before Linux 5.19).
    pub fn peak_memory_bytes(&self) -> Option<u64> {
        let name = match self.version {
            Version::V2 => "memory.peak",
            Version::V1 => "memory.max_usage_in_bytes",
        };
        self.number("memory", name)
    }

    #[cfg(test)]
    /// Whether a fork or a new thread was refused at the process limit.
    pub fn process_limit_hit(&self) -> bool {
        self.read("pids", "pids.events")
            .is_some_and(|events| counter(&events, "max").is_some_and(|count| count > 0))
    }

    #[cfg(test)]
    /// Whether no process is left in the cgroup (zombies do not count: they have ended).
    pub fn is_empty(&self) -> bool {
        self.members.iter().all(|member| member.pids().is_empty())
    }

    /// Kills every process of the run, and waits until none is left; `false` when some
    /// still were after a while.
    pub fn kill_all(&self) -> bool {
        if self.version == Version::V2 {
            // Linux 5.14 and later kill the whole cgroup at once, a process being forked
            // included; the loop below only waits then.
            let _ = set_if_present(&self.members[0].place.dir, "cgroup.kill", "1");
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let mut empty = true;
            for member in &self.members {
                for pid in member.pids() {
                    empty = false;
                    member.kill(pid);
                }
            }
            // A fork under way when the list was read shows up on the next round.
            if empty {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The cgroup of `controller` (v2 has one for both).
    fn member(&self, controller: &str) -> &Member {
        self.members
            .iter()
            .find(|member| member.place.controller == controller)
            .unwrap_or(&self.members[0])
    }

    /// The cgroup directory of `controller`.
    fn dir(&self, controller: &str) -> &Path {
        &self.member(controller).place.dir
    }

    /// What file `name` of `controller`'s cgroup says now.
    fn read(&self, controller: &str, name: &'static str) -> Option<String> {
        self.member(controller).read(name)
    }

    /// The number file `name` of `controller`'s cgroup holds now (`pids.current`,
    /// `memory.failcnt`).
    fn number(&self, controller: &str, name: &'static str) -> Option<u64> {
        self.read(controller, name)?.trim().parse().ok()
    }

    #[cfg(test)]
    fn dirs(&self) -> impl Iterator<Item = &Path> {
        self.members.iter().map(|member| member.place.dir.as_path())
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        let empty = self.kill_all();
        for member in &mut self.members {
            member.join = None;
            member
                .read
                .get_mut()
                .unwrap_or_else(|e| e.into_inner())
                .clear();
            // The last processes may still be leaving when the list is already empty.
            let patience = if empty { PATIENCE } else { Duration::ZERO };
            remove_patiently(&member.place.dir, patience);
        }
    }
}

impl Member {
    fn new(place: Place) -> Member {
        Member {
            place,
            join: None,
            read: Mutex::default(),
        }
    }

    /// What counter file `name` of the cgroup says now, read from its start through the
    /// descriptor kept for it (the kernel writes a counter's file anew for each read from
    /// its start).
    fn read(&self, name: &'static str) -> Option<String> {
        use std::os::unix::fs::FileExt;
        let mut kept = self.read.lock().unwrap_or_else(|e| e.into_inner());
        let index = match kept.iter().position(|(kept, _)| *kept == name) {
            Some(index) => index,
            None => {
                kept.push((name, File::open(self.place.dir.join(name)).ok()?));
                kept.len() - 1
            }
        };
        let file = &kept[index].1;
        let mut text = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            match file.read_at(&mut chunk, text.len() as u64) {
                Ok(0) => break,
                Ok(read) => text.extend_from_slice(&chunk[..read]),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        String::from_utf8(text).ok()
    }

    /// The processes in the cgroup, as pids of this process's pid namespace. Read through
    /// a descriptor of its own each time: under v1 the kernel keeps the list it made for a
    /// descriptor as long as that descriptor is read, so a kept one would not see a process
    /// join.
    fn pids(&self) -> Vec<i32> {
        fs::read_to_string(self.place.dir.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.trim().parse().ok())
            .collect()
    }

    /// SIGKILL to `pid` if it is still in this cgroup. Between reading cgroup.procs and the
    /// signal, the process may have ended and its pid gone to a process elsewhere: a pidfd
    /// holds on to one process, so a process found in the cgroup after the pidfd was
    /// opened is the one that gets the signal, or nobody does.
    #[cfg(target_os = "linux")]
    fn kill(&self, pid: i32) {
        // SAFETY: pidfd_open takes plain integers and returns a new descriptor.
        let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        if raw < 0 {
            self.kill_without_pidfd(pid, &io::Error::last_os_error());
            return;
        }
        // SAFETY: pidfd_open returned a descriptor that nothing else owns.
        let pidfd =
            unsafe { <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(raw as RawFd) };
        if self.holds(pid) {
            // SAFETY: a pidfd we own, a signal number, no siginfo.
            unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    pidfd.as_raw_fd(),
                    libc::SIGKILL,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                )
            };
        }
    }

    /// SIGKILL to `pid`, where opening its pidfd failed with `err`. Before Linux 5.3 there
    /// is no pidfd (ENOSYS): the check narrows the window as well as it can. Any other
    /// failure means the process is gone (ESRCH).
    #[cfg(target_os = "linux")]
    fn kill_without_pidfd(&self, pid: i32, err: &io::Error) {
        if err.raw_os_error() == Some(libc::ENOSYS) && self.holds(pid) {
            // SAFETY: kill takes plain integers.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn kill(&self, pid: i32) {
        if self.holds(pid) {
            // SAFETY: kill takes plain integers.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }

    /// Whether process `pid` is in this cgroup now.
    fn holds(&self, pid: i32) -> bool {
        fs::read_to_string(format!("/proc/{pid}/cgroup")).is_ok_and(|text| {
            parse_memberships(&text).iter().any(|membership| {
                membership.path == self.place.path
                    && match self.place.controller {
                        "" => membership.is_v2(),
                        controller => membership.controllers.split(',').any(|c| c == controller),
                    }
            })
        })
    }
}

impl Joiner {
    /// Moves the calling process, which has one thread, into the run's cgroup(s): writing
    /// "0" moves the writer. No allocation, only write(2).
    ///
    /// # Safety
    /// Only for the child of a fork, before exec (a `pre_exec` closure), while the
    /// [`RunCgroup`] lives: called in clings itself it would put clings into the run, and
    /// after the drop the descriptors may be something else.
    pub unsafe fn join(&self) -> io::Result<()> {
        for &fd in &self.fds[..self.count] {
            // SAFETY: one byte from a static buffer, to a descriptor the caller vouches for.
            let written = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
            if written < 0 {
                return Err(io::Error::last_os_error());
            }
            if written != 1 {
                return Err(io::Error::from_raw_os_error(libc::EIO));
            }
        }
        Ok(())
    }
}

/// Removes an empty cgroup directory, retrying while the kernel still counts processes
/// that are ending (EBUSY).
fn remove_patiently(dir: &Path, patience: Duration) {
    let deadline = Instant::now() + patience;
    loop {
        match fs::remove_dir(dir) {
            Err(err) if err.raw_os_error() == Some(libc::EBUSY) && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            _ => return,
        }
    }
}

/// Writes `value` to a cgroup file in one write(2), as the kernel wants it.
fn set(path: &Path, value: &str) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    let written = file.write(value.as_bytes())?;
    if written != value.len() {
        return Err(io::Error::from_raw_os_error(libc::EIO));
    }
    Ok(())
}

fn set_in(dir: &Path, name: &str, value: &str) -> io::Result<()> {
    let path = dir.join(name);
    set(&path, value)
        .map_err(|err| failed(format!("cannot write {value} to {}", path.display()), err))
}

/// For files that some kernels lack (swap accounting, cgroup.kill).
fn set_if_present(dir: &Path, name: &str, value: &str) -> io::Result<()> {
    match set_in(dir, name, value) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
        result => result,
    }
}

/// The error with what failed, keeping its kind (AlreadyExists tells a name is taken).
fn failed(what: String, err: io::Error) -> io::Error {
    io::Error::new(err.kind(), format!("{what}: {}", explain(&err)))
}

/// The error, with the likely reason where the kernel's words do not say it.
fn explain(err: &io::Error) -> String {
    let root = nix::unistd::geteuid().is_root();
    match err.raw_os_error() {
        Some(libc::EACCES | libc::EPERM) if !root => format!("{err} (clings is not root)"),
        Some(libc::EROFS) => format!("{err} (the cgroup file system is mounted read-only)"),
        _ => err.to_string(),
    }
}

/// `key value` lines, as in memory.events and memory.oom_control.
fn counter(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok())?
    })
}

fn join_cgroup_path(parent: &str, name: &str) -> String {
    format!("{}/{name}", parent.trim_end_matches('/'))
}

/// `(pid namespace, pid)` of a run cgroup's name.
fn parse_name(name: &str) -> Option<(u64, u32)> {
    let mut parts = name.strip_prefix(PREFIX)?.split('-');
    let namespace = parts.next()?.parse().ok()?;
    let pid = parts.next()?.parse().ok()?;
    let _counter: u64 = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((namespace, pid))
}

/// Whether a process `pid` exists (a zombie does: its clings may still be reaped).
fn alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only checks that the process exists.
    pid <= 0
        || unsafe { libc::kill(pid, 0) } == 0
        || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// The inode number of this process's pid namespace, which identifies it.
fn pid_namespace() -> u64 {
    use std::os::unix::fs::MetadataExt;
    fs::metadata("/proc/self/ns/pid").map_or(0, |meta| meta.ino())
}

/// A line of /proc/self/mountinfo.
#[derive(Debug, PartialEq, Eq)]
struct Mount {
    /// The directory of the hierarchy that is mounted (`/` for all of it).
    root: String,
    point: PathBuf,
    read_only: bool,
    fstype: String,
    super_options: String,
}

impl Mount {
    fn has_option(&self, option: &str) -> bool {
        self.super_options.split(',').any(|have| have == option)
    }

    /// The directory of cgroup `path` under this mount, if the mount shows it.
    fn locate(&self, path: &str) -> Option<PathBuf> {
        let rest = match self.root.as_str() {
            "/" => path,
            root => {
                let rest = path.strip_prefix(root)?;
                if !rest.is_empty() && !rest.starts_with('/') {
                    return None;
                }
                rest
            }
        };
        let rest = rest.trim_start_matches('/');
        Some(match rest {
            "" => self.point.clone(),
            rest => self.point.join(rest),
        })
    }
}

/// `id parent major:minor root point options [optional...] - fstype source super-options`
fn parse_mounts(text: &str) -> Vec<Mount> {
    text.lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let left: Vec<&str> = left.split(' ').collect();
            let mut right = right.split(' ');
            Some(Mount {
                root: unescape(left.get(3)?),
                point: PathBuf::from(unescape(left.get(4)?)),
                read_only: left.get(5)?.split(',').any(|option| option == "ro"),
                fstype: right.next()?.to_string(),
                super_options: right.nth(1).unwrap_or("").to_string(),
            })
        })
        .collect()
}

/// mountinfo writes space, tab, newline and backslash as `\` and three octal digits.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes.get(i + 1..i + 4).and_then(|digits| {
            let text = std::str::from_utf8(digits).ok()?;
            u8::from_str_radix(text, 8).ok()
        });
        match (bytes[i], octal) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A line of /proc/<pid>/cgroup: `id:controllers:path`; v2's is `0::path`.
#[derive(Debug, PartialEq, Eq)]
struct Membership {
    id: String,
    controllers: String,
    path: String,
}

impl Membership {
    fn is_v2(&self) -> bool {
        self.id == "0" && self.controllers.is_empty()
    }
}

fn parse_memberships(text: &str) -> Vec<Membership> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            Some(Membership {
                id: parts.next()?.to_string(),
                controllers: parts.next()?.to_string(),
                path: parts.next()?.to_string(),
            })
        })
        .collect()
}

// The tests fork, mount and unshare, as only Linux does.
#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    /// `detect` sweeps the cgroups named after dead pids: tests detect at once, but not while
    /// the test of that sweep has such a cgroup of its own in the making. Nor do they make
    /// run cgroups while the test of names counts on the next numbers.
    static SWEEPS: std::sync::RwLock<()> = std::sync::RwLock::new(());

    /// The cgroups of this machine, or `None` after saying why the test does not run.
    /// Straight to the standard error, which the test harness does not capture: a skip
    /// must show, not pass silently.
    fn cgroups_or_skip(test: &str) -> Option<Cgroups> {
        let _sweeping = SWEEPS.read().unwrap_or_else(|e| e.into_inner());
        match Cgroups::detect() {
            Ok(cgroups) => Some(cgroups),
            Err(reason) => {
                crate::sandbox::skip_unless_ci(test, &reason);
                None
            }
        }
    }

    /// A run cgroup of 64 MiB and 8 processes, or `None` after saying why the test does not
    /// run (see [`cgroups_or_skip`]).
    fn run_cgroup_or_skip(test: &str) -> Option<RunCgroup> {
        let cgroups = cgroups_or_skip(test)?;
        Some(new_run_cgroup(&cgroups, 64 << 20, 8))
    }

    /// A run cgroup, made when no test counts on the names to come (see [`SWEEPS`]).
    fn new_run_cgroup(cgroups: &Cgroups, memory_bytes: u64, max_processes: u64) -> RunCgroup {
        let _naming = SWEEPS.read().unwrap_or_else(|e| e.into_inner());
        RunCgroup::create(cgroups, memory_bytes, max_processes).unwrap()
    }

    /// Forks a child that joins `run` and then runs `body` (async-signal-safe calls only:
    /// this test process has other threads), which returns the child's exit status. Returns
    /// the child's wait status.
    fn in_child(run: &RunCgroup, body: impl FnOnce() -> i32) -> i32 {
        let joiner = run.joiner();
        // SAFETY: the child makes system calls only, then _exit.
        let child = unsafe { libc::fork() };
        assert!(child >= 0, "fork: {}", io::Error::last_os_error());
        if child == 0 {
            // SAFETY: in the child of a fork, before anything else.
            let code = match unsafe { joiner.join() } {
                Ok(()) => body(),
                Err(_) => 120,
            };
            // SAFETY: leaving the child without running the parent's destructors.
            unsafe { libc::_exit(code) };
        }
        wait_for(child)
    }

    fn wait_for(pid: i32) -> i32 {
        let mut status = 0;
        loop {
            // SAFETY: waiting for our own child, writing into `status`.
            if unsafe { libc::waitpid(pid, &mut status, 0) } == pid {
                return status;
            }
            assert_eq!(
                io::Error::last_os_error().kind(),
                io::ErrorKind::Interrupted
            );
        }
    }

    /// A child of the calling process that waits for a signal, for ever.
    fn sleeper() -> i32 {
        // SAFETY: the child only pauses.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            loop {
                // SAFETY: pause takes nothing.
                unsafe { libc::pause() };
            }
        }
        pid
    }

    /// Touches `bytes` of fresh anonymous memory, page by page. Async-signal-safe.
    fn touch(bytes: usize) -> bool {
        // SAFETY: a new private mapping, written only within its length.
        unsafe {
            let memory = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if memory == libc::MAP_FAILED {
                return false;
            }
            let memory = memory.cast::<u8>();
            for offset in (0..bytes).step_by(4096) {
                memory.add(offset).write_volatile(1);
            }
        }
        true
    }

    fn exit_code(status: i32) -> Option<i32> {
        libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status))
    }

    #[test]
    fn names_carry_the_pid_namespace_and_the_pid() {
        assert_eq!(
            parse_name("clings-4026531836-123-7"),
            Some((4026531836, 123))
        );
        for other in [
            "clings",
            "clings-1-2",
            "clings-1-2-x",
            "clings-1-2-3-4",
            "clings-1--3",
            "other-1-2-3",
        ] {
            assert_eq!(parse_name(other), None, "{other}");
        }
        assert_eq!(join_cgroup_path("/", "clings"), "/clings");
        assert_eq!(join_cgroup_path("/a/b", "c"), "/a/b/c");
    }

    #[test]
    fn mounts_and_own_cgroups_are_read_as_the_kernel_writes_them() {
        // This machine's kind (hybrid) and a GitHub runner's (unified), shortened.
        let mountinfo = "\
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 31 0:36 / /sys/fs/cgroup/pids rw,relatime shared:9 - cgroup cgroup rw,pids
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct ro,relatime - cgroup cgroup rw,cpu,cpuacct
41 31 0:38 /docker/abc /sys/fs/cgroup/unified\\040v2 rw,nosuid - cgroup2 cgroup2 rw
";
        let mounts = parse_mounts(mountinfo);
        assert_eq!(mounts.len(), 4);
        assert!(mounts[0].has_option("memory") && !mounts[0].has_option("pids"));
        assert!(mounts[2].read_only && !mounts[1].read_only);
        assert_eq!(mounts[3].point, Path::new("/sys/fs/cgroup/unified v2"));
        assert_eq!(mounts[3].fstype, "cgroup2");
        assert_eq!(
            mounts[3].locate("/docker/abc/x"),
            Some(PathBuf::from("/sys/fs/cgroup/unified v2/x"))
        );
        assert_eq!(
            mounts[3].locate("/docker/abc"),
            Some(PathBuf::from("/sys/fs/cgroup/unified v2"))
        );
        assert_eq!(mounts[3].locate("/docker/abcd"), None);
        assert_eq!(
            mounts[0].locate("/process_api/1c32"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/process_api/1c32"))
        );

        let own =
            parse_memberships("8:pids:/\n4:memory:/process_api/1c32\n1:name=systemd:/a:b\n0::/\n");
        assert_eq!(own.len(), 4);
        assert_eq!(own[2].path, "/a:b");
        assert!(own[3].is_v2() && !own[0].is_v2());
        let parents = v1_parents(&mounts, &own).unwrap();
        assert_eq!(
            parents,
            [
                Place {
                    dir: "/sys/fs/cgroup/memory/process_api/1c32".into(),
                    path: "/process_api/1c32".into(),
                    controller: "memory",
                },
                Place {
                    dir: "/sys/fs/cgroup/pids".into(),
                    path: "/".into(),
                    controller: "pids",
                },
            ]
        );
        let no_pids = parse_mounts(mountinfo.lines().next().unwrap());
        let reason = v1_parents(&no_pids, &own).unwrap_err();
        assert!(reason.contains("no pids hierarchy"), "{reason}");

        assert_eq!(counter("low 0\nmax 12\noom_kill 1\n", "max"), Some(12));
        assert_eq!(
            counter("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n", "oom_kill"),
            Some(3)
        );
        assert_eq!(counter("oom_kill_disable 0\n", "oom_kill"), None);
    }

    /// cgroup v2 cannot be tried for real on a hybrid machine: a directory that looks like
    /// one shows which cgroup becomes the parent. The process's own cgroup (a service,
    /// which holds processes) cannot hand on controllers, so runs go below the root.
    #[test]
    fn under_cgroup_v2_runs_go_below_a_clings_cgroup_at_the_root_when_their_own_refuses() {
        let root = tempfile::tempdir().unwrap();
        let write = |path: &str, text: &str| {
            let path = root.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        };
        write("cgroup.controllers", "cpuset cpu io memory pids\n");
        write("cgroup.subtree_control", "cpu memory\n");
        // No cgroup.subtree_control here: writing it fails, as EBUSY would.
        fs::create_dir_all(root.path().join("system.slice/runner.service")).unwrap();
        write("clings/cgroup.subtree_control", "");
        let mountinfo = format!(
            "30 23 0:26 / {} rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n",
            root.path().display()
        );
        let own = parse_memberships("0::/system.slice/runner.service\n");
        let cgroups = Cgroups::find(&parse_mounts(&mountinfo), &own, 7).unwrap();
        assert_eq!(cgroups.version, Version::V2);
        assert_eq!(
            cgroups.parents,
            [Place {
                dir: root.path().join("clings"),
                path: "/clings".into(),
                controller: "",
            }]
        );
        let read = |path: &str| fs::read_to_string(root.path().join(path)).unwrap();
        assert_eq!(read("cgroup.subtree_control"), "+memory +pids");
        assert_eq!(read("clings/cgroup.subtree_control"), "+memory +pids");

        // Without the controllers in v2 (a hybrid machine), v1 is next, and both say why.
        write("cgroup.controllers", "cpu io\n");
        let reason = Cgroups::find(&parse_mounts(&mountinfo), &own, 7).unwrap_err();
        assert!(
            reason.contains("controller missing: memory and pids"),
            "{reason}"
        );
        assert!(reason.contains("cgroup v1: controller missing"), "{reason}");
    }

    #[test]
    fn a_run_within_its_limits_is_not_reported_and_joins_through_pre_exec() {
        let Some(run) = run_cgroup_or_skip("a_run_within_its_limits") else {
            return;
        };
        assert_eq!(
            exit_code(in_child(&run, || i32::from(!touch(16 * MIB)))),
            Some(0)
        );
        assert!(!run.memory_since_begin().limit_reached);
        assert!(!run.process_limit_hit());
        let peak = run.peak_memory_bytes().unwrap();
        assert!((16 << 20..64 << 20).contains(&peak), "peak {peak}");

        // As the launch will do it: a Command whose child joins before exec.
        use std::os::unix::process::CommandExt;
        let joiner = run.joiner();
        let mut command = std::process::Command::new("/bin/cat");
        command.arg("/proc/self/cgroup");
        // SAFETY: join only writes to descriptors that `run` keeps open.
        unsafe { command.pre_exec(move || joiner.join()) };
        let output = command.output().unwrap();
        assert!(output.status.success());
        let shown = parse_memberships(&String::from_utf8_lossy(&output.stdout));
        for member in &run.members {
            assert!(
                shown.iter().any(|m| m.path == member.place.path),
                "{shown:?} lacks {}",
                member.place.path
            );
        }
    }

    #[test]
    fn sixteen_hogs_are_held_to_the_memory_of_one_run() {
        let Some(cgroups) = cgroups_or_skip("sixteen_hogs") else {
            return;
        };
        let run = new_run_cgroup(&cgroups, 64 << 20, 4);
        let dirs: Vec<PathBuf> = run.dirs().map(Path::to_path_buf).collect();
        // Four children, 200 MiB each, and the count of those that got all of it.
        let status = in_child(&run, || {
            let mut children = [0; 4];
            for slot in &mut children {
                // SAFETY: the grandchild touches memory and leaves.
                let pid = unsafe { libc::fork() };
                if pid == 0 {
                    // SAFETY: leaving the grandchild.
                    unsafe { libc::_exit(i32::from(!touch(200 * MIB))) };
                }
                *slot = pid;
            }
            let mut finished = 0;
            for pid in children.into_iter().filter(|pid| *pid > 0) {
                let mut status = 0;
                // SAFETY: waiting for our own child.
                unsafe { libc::waitpid(pid, &mut status, 0) };
                if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
                    finished += 1;
                }
            }
            finished
        });
        // The OOM killer takes the largest, a hog; the waiting child survives to count.
        assert_eq!(exit_code(status), Some(0), "status {status:#x}");
        assert!(run.memory_since_begin().limit_reached);
        let peak = run.peak_memory_bytes().unwrap();
        assert!(peak <= (64 << 20) + (1 << 20), "peak {peak}");
        drop(run);
        for dir in dirs {
            assert!(!dir.exists(), "{} is still there", dir.display());
        }
    }

    /// bubblewrap's scratch directory is a tmpfs: what a run writes there is its memory.
    #[test]
    fn files_on_a_tmpfs_count_against_the_memory_of_the_run() {
        let Some(cgroups) = cgroups_or_skip("files_on_a_tmpfs") else {
            return;
        };
        let run = new_run_cgroup(&cgroups, 64 << 20, 4);
        let mount_point = tempfile::tempdir().unwrap();
        let dir =
            std::ffi::CString::new(mount_point.path().as_os_str().as_encoded_bytes()).unwrap();
        let file = std::ffi::CString::new(
            mount_point
                .path()
                .join("parked")
                .as_os_str()
                .as_encoded_bytes(),
        )
        .unwrap();
        let chunk = vec![0xabu8; MIB];
        // 0: all 200 MiB written; 1: a write failed; 2 to 5: no tmpfs to try with.
        let status = in_child(&run, || {
            // SAFETY: system calls on this child's own mount namespace and files.
            unsafe {
                if libc::unshare(libc::CLONE_NEWNS) != 0 {
                    return 2;
                }
                let none = std::ptr::null::<libc::c_char>();
                if libc::mount(
                    none,
                    c"/".as_ptr(),
                    none,
                    libc::MS_REC | libc::MS_PRIVATE,
                    none.cast(),
                ) != 0
                {
                    return 3;
                }
                let options = c"size=1g";
                if libc::mount(
                    c"tmpfs".as_ptr(),
                    dir.as_ptr(),
                    c"tmpfs".as_ptr(),
                    0,
                    options.as_ptr().cast(),
                ) != 0
                {
                    return 4;
                }
                let fd = libc::open(file.as_ptr(), libc::O_WRONLY | libc::O_CREAT, 0o600);
                if fd < 0 {
                    return 5;
                }
                for _ in 0..200 {
                    if libc::write(fd, chunk.as_ptr().cast(), chunk.len()) != chunk.len() as isize {
                        return 1;
                    }
                }
            }
            0
        });
        assert!(
            exit_code(status).is_none_or(|code| code == 1),
            "status {status:#x}"
        );
        assert!(run.memory_since_begin().limit_reached);
    }

    /// Writes `mib` MiB to the file open as `fd`, in a forked child; 0 when all of it was
    /// written, else 1. Async-signal-safe.
    fn write_mib(fd: RawFd, mib: usize, chunk: &[u8]) -> i32 {
        for _ in 0..mib {
            // SAFETY: writing from a buffer of the given length.
            if unsafe { libc::write(fd, chunk.as_ptr().cast(), chunk.len()) }
                != chunk.len() as isize
            {
                return 1;
            }
        }
        0
    }

    /// A file on a tmpfs outside the run keeps its pages charged to the run's cgroup after
    /// the run's processes are gone, and the kernel cannot take them back (no swap): that
    /// cgroup would give every later run 32 MiB less. It is not reused until the file is
    /// gone.
    #[test]
    fn a_cgroup_left_with_a_file_on_a_tmpfs_charged_to_it_is_not_reused() {
        let Some(run) = run_cgroup_or_skip("a_cgroup_left_with_a_file_on_a_tmpfs") else {
            return;
        };
        let parked = tempfile::NamedTempFile::new_in("/dev/shm").unwrap();
        let chunk = vec![0xabu8; MIB];
        let fd = parked.as_file().as_raw_fd();
        assert_eq!(
            exit_code(in_child(&run, || write_mib(fd, 32, &chunk))),
            Some(0)
        );
        assert!(run.is_empty());
        let charged = run.memory_charged().unwrap();
        assert!(charged >= 32 << 20, "{charged} bytes charged");
        assert!(!run.reusable(), "reused with {charged} bytes charged");
        // Emptied rather than removed: a child forked meanwhile by another test holds
        // the file open.
        parked.as_file().set_len(0).unwrap();
        assert!(run.reusable(), "the file is empty, its pages gone with it");
    }

    /// What an ordinary run leaves, memory it freed and page cache that the kernel takes
    /// back (a file it wrote to disk), does not keep its cgroup from serving the next run,
    /// once the kernel was asked to reclaim it.
    #[test]
    fn a_cgroup_left_with_only_what_the_kernel_takes_back_is_reused() {
        let Some(run) = run_cgroup_or_skip("a_cgroup_left_with_only_what_the_kernel_takes_back")
        else {
            return;
        };
        let on_disk = tempfile::tempfile().unwrap();
        let mut fs_info: libc::statfs = unsafe { std::mem::zeroed() };
        // SAFETY: fstatfs writes into the struct it is given.
        assert_eq!(
            unsafe { libc::fstatfs(on_disk.as_raw_fd(), &mut fs_info) },
            0
        );
        assert_ne!(
            fs_info.f_type,
            libc::TMPFS_MAGIC,
            "the temporary directory is a tmpfs: its page cache is never reclaimed"
        );
        let chunk = vec![0xabu8; MIB];
        let fd = on_disk.as_raw_fd();
        let status = in_child(&run, || {
            if !touch(16 * MIB) || write_mib(fd, 32, &chunk) != 0 {
                return 1;
            }
            // Clean pages: the kernel takes them back without waiting for the disk.
            // SAFETY: a descriptor this child inherited.
            i32::from(unsafe { libc::fdatasync(fd) } != 0)
        });
        assert_eq!(exit_code(status), Some(0));
        let charged = run.memory_charged().unwrap();
        assert!(charged > SETTLED_BYTES, "{charged} bytes of page cache");
        assert!(run.reusable(), "not reused");
        let left = run.memory_charged().unwrap();
        assert!(left <= SETTLED_BYTES, "{left} bytes left");
    }

    /// A process of the run that has ended but is not reaped yet still counts against the
    /// cgroup's process limit: the cgroup is not reused until it is reaped.
    #[test]
    fn a_cgroup_that_still_counts_a_process_is_not_reused() {
        let Some(run) = run_cgroup_or_skip("a_cgroup_that_still_counts_a_process") else {
            return;
        };
        let joiner = run.joiner();
        // SAFETY: the child joins and leaves.
        let child = unsafe { libc::fork() };
        if child == 0 {
            // SAFETY: in the child of a fork; leaving it without the parent's destructors.
            unsafe { libc::_exit(i32::from(joiner.join().is_err())) };
        }
        // SAFETY: waits for the child to end, leaving it a zombie (WNOWAIT).
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let ended = unsafe {
            libc::waitid(
                libc::P_PID,
                child as _,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        assert_eq!(ended, 0, "{}", io::Error::last_os_error());
        assert!(run.is_empty());
        assert!(!run.reusable(), "reused with a process counted");
        assert_eq!(exit_code(wait_for(child)), Some(0));
        assert!(run.reusable(), "reaped, it counts no more");
    }

    #[test]
    fn a_fork_past_the_process_limit_fails_with_eagain() {
        let Some(cgroups) = cgroups_or_skip("a_fork_past_the_process_limit") else {
            return;
        };
        let run = new_run_cgroup(&cgroups, 64 << 20, 4);
        // How many forks worked before one failed with EAGAIN; 100 + that for another end.
        let status = in_child(&run, || {
            let mut children = [0; 8];
            let mut made = 0;
            let mut eagain = false;
            for slot in &mut children {
                let pid = sleeper();
                if pid < 0 {
                    eagain = io::Error::last_os_error().raw_os_error() == Some(libc::EAGAIN);
                    break;
                }
                *slot = pid;
                made += 1;
            }
            for pid in children.into_iter().filter(|pid| *pid > 0) {
                // SAFETY: killing and reaping our own children.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
            }
            if eagain { made } else { 100 + made }
        });
        // The joined child is one of the four.
        assert_eq!(exit_code(status), Some(3), "status {status:#x}");
        assert!(run.process_limit_hit());
        assert!(!run.memory_since_begin().limit_reached);
    }

    /// A clings is alive until it is reaped (its cgroups are kept meanwhile); whatever
    /// errno an earlier check left does not make a live process look dead.
    #[test]
    fn a_process_is_alive_until_it_is_reaped() {
        // SAFETY: the child exits at once.
        let child = unsafe { libc::fork() };
        if child == 0 {
            // SAFETY: leaving the child at once.
            unsafe { libc::_exit(0) };
        }
        // A zombie until reaped: still there.
        assert!(alive(child as u32));
        wait_for(child);
        assert!(!alive(child as u32));
        // That check left ESRCH behind.
        assert!(alive(std::process::id()));
    }

    /// Run cgroups are named by the pid namespace the kernel shows for this process.
    #[test]
    fn the_pid_namespace_is_the_kernel_s() {
        let link = fs::read_link("/proc/self/ns/pid").unwrap();
        assert_eq!(link.to_string_lossy(), format!("pid:[{}]", pid_namespace()));
    }

    /// A run cgroup holds its limits: memory, with no swap beyond it, the OOM killer on (a
    /// v1 cgroup inherits its parent's setting), and the processes.
    #[test]
    fn a_run_cgroup_is_made_with_its_limits() {
        let Some(cgroups) = cgroups_or_skip("a_run_cgroup_is_made_with_its_limits") else {
            return;
        };
        let run = new_run_cgroup(&cgroups, 48 << 20, 7);
        let read = |controller: &str, name: &str| {
            fs::read_to_string(run.dir(controller).join(name)).map(|text| text.trim().to_string())
        };
        let bytes = (48u64 << 20).to_string();
        match run.version {
            Version::V1 => {
                assert_eq!(read("memory", "memory.limit_in_bytes").unwrap(), bytes);
                if let Ok(with_swap) = read("memory", "memory.memsw.limit_in_bytes") {
                    assert_eq!(with_swap, bytes);
                }
                if let Ok(oom) = read("memory", "memory.oom_control") {
                    assert!(oom.contains("oom_kill_disable 0"), "{oom}");
                }
            }
            Version::V2 => {
                assert_eq!(read("memory", "memory.max").unwrap(), bytes);
                if let Ok(swap) = read("memory", "memory.swap.max") {
                    assert_eq!(swap, "0");
                }
            }
        }
        assert_eq!(read("pids", "pids.max").unwrap(), "7");
    }

    /// Forks a child that joins `run`, starts `sleepers` processes in sessions of their own,
    /// and waits; returns it once all are in the cgroup.
    fn waiting_in(run: &RunCgroup, sleepers: usize) -> i32 {
        let joiner = run.joiner();
        // SAFETY: the child makes system calls only.
        let child = unsafe { libc::fork() };
        if child == 0 {
            // SAFETY: system calls only, in the child of a fork.
            unsafe {
                if joiner.join().is_err() {
                    libc::_exit(120);
                }
                for _ in 0..sleepers {
                    if libc::fork() == 0 {
                        libc::setsid();
                        loop {
                            libc::pause();
                        }
                    }
                }
                loop {
                    libc::pause();
                }
            }
        }
        // A few forks take milliseconds; a machine loaded with builds can take seconds.
        let deadline = Instant::now() + Duration::from_secs(30);
        while run.members[0].pids().len() < 1 + sleepers && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(run.members[0].pids().len(), 1 + sleepers);
        child
    }

    /// The counters are read through descriptors kept from one run to the next: each read
    /// must say what is now, not what the kernel made for the descriptor's first read.
    #[test]
    fn a_counter_read_again_through_its_kept_descriptor_says_what_is_now() {
        let Some(run) = run_cgroup_or_skip("a_counter_read_again") else {
            return;
        };
        assert_eq!(run.number("pids", "pids.current"), Some(0));
        let before = run.memory_charged().unwrap();
        let child = waiting_in(&run, 2);
        assert_eq!(run.number("pids", "pids.current"), Some(3));
        assert!(run.memory_charged().unwrap() > before);
        assert!(run.kill_all());
        wait_for(child);
    }

    /// A cgroup whose last process is still ending cannot be removed yet (EBUSY): removing
    /// it patiently waits until it can; one already gone is done with at once.
    #[test]
    fn a_cgroup_still_emptying_is_removed_once_empty_and_a_gone_one_at_once() {
        let Some(run) = run_cgroup_or_skip("a_cgroup_still_emptying") else {
            return;
        };
        let child = waiting_in(&run, 0);
        let dirs: Vec<PathBuf> = run.dirs().map(Path::to_path_buf).collect();
        let busy = fs::remove_dir(&dirs[0]).unwrap_err();
        assert_eq!(busy.raw_os_error(), Some(libc::EBUSY), "{busy}");
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            // SAFETY: kill takes plain integers; the child is not reaped yet.
            unsafe { libc::kill(child, libc::SIGKILL) };
        });
        for dir in &dirs {
            remove_patiently(dir, Duration::from_secs(10));
            assert!(!dir.exists(), "{} is still there", dir.display());
        }
        killer.join().unwrap();
        wait_for(child);
        let started = Instant::now();
        remove_patiently(&dirs[0], Duration::from_secs(10));
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    /// A name left by an earlier clings with this pid (one detect could not remove) is
    /// skipped for the next number; a hundred taken in a row is an error, not a search
    /// without end.
    #[test]
    fn a_name_already_taken_is_skipped_a_hundred_times_at_most() {
        // No other cgroup test makes names meanwhile.
        let _alone = SWEEPS.write().unwrap_or_else(|e| e.into_inner());
        let cgroups = match Cgroups::detect() {
            Ok(cgroups) => cgroups,
            Err(reason) => {
                crate::sandbox::skip_unless_ci("a_name_already_taken", &reason);
                return;
            }
        };
        let me = std::process::id();
        for (taken, made) in [(3, true), (100, false)] {
            let next = COUNTER.load(Ordering::Relaxed);
            let dirs: Vec<PathBuf> = (next..next + taken)
                .flat_map(|number| {
                    let name = format!("{PREFIX}{}-{me}-{number}", cgroups.namespace);
                    cgroups
                        .parents
                        .iter()
                        .map(move |parent| parent.child(&name).dir)
                })
                .collect();
            for dir in &dirs {
                fs::create_dir(dir).unwrap();
            }
            let run = RunCgroup::create(&cgroups, 64 << 20, 8);
            for dir in &dirs {
                let _ = fs::remove_dir(dir);
            }
            match run {
                Ok(run) => {
                    assert!(made, "made after {taken} names taken");
                    assert!(run.dirs().all(|dir| !dirs.iter().any(|taken| taken == dir)));
                }
                Err(err) => {
                    assert!(!made, "{taken} names taken: {err}");
                    assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
                }
            }
        }
    }

    /// What a failure says adds the likely reason where the kernel's words do not.
    /// A v2 cgroup that holds processes cannot give its children controllers (EBUSY): the
    /// message says so; other refusals say only what the kernel said.
    #[test]
    fn controllers_refused_to_a_cgroup_with_processes_say_why() {
        let dir = Path::new("/sys/fs/cgroup/user.slice");
        let busy = controllers_refused(dir, &io::Error::from_raw_os_error(libc::EBUSY));
        assert!(busy.contains("/sys/fs/cgroup/user.slice"), "{busy}");
        assert!(busy.contains("it holds processes"), "{busy}");
        let gone = controllers_refused(dir, &io::Error::from_raw_os_error(libc::ENOENT));
        assert!(!gone.contains("holds processes"), "{gone}");
    }

    #[test]
    fn a_failure_says_its_likely_reason() {
        let text = |errno| explain(&io::Error::from_raw_os_error(errno));
        assert!(
            text(libc::EROFS).contains("mounted read-only"),
            "{}",
            text(libc::EROFS)
        );
        let denied = text(libc::EACCES);
        assert!(denied.starts_with(&io::Error::from_raw_os_error(libc::EACCES).to_string()));
        assert_eq!(
            denied.contains("(clings is not root)"),
            !nix::unistd::geteuid().is_root(),
            "{denied}"
        );
        assert_eq!(
            text(libc::ENOENT),
            io::Error::from_raw_os_error(libc::ENOENT).to_string()
        );
    }

    /// The signal a child that pauses for ever dies of, once it is sent SIGTERM: SIGKILL if
    /// it was sent that before.
    fn terminated(pid: i32) -> i32 {
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let status = wait_for(pid);
        assert!(libc::WIFSIGNALED(status), "{status:#x}");
        libc::WTERMSIG(status)
    }

    /// Before Linux 5.3 there is no pidfd (ENOSYS): a process still in the cgroup is killed
    /// by its pid, and one elsewhere is not; after any other failure (ESRCH: it is gone)
    /// nothing is sent.
    #[cfg(target_os = "linux")]
    #[test]
    fn without_a_pidfd_only_a_process_in_the_cgroup_is_killed_and_only_for_want_of_pidfds() {
        let Some(run) = run_cgroup_or_skip("without_a_pidfd_only_a_process_in_the_cgroup") else {
            return;
        };
        let member = &run.members[0];
        let no_pidfds = io::Error::from_raw_os_error(libc::ENOSYS);
        let gone = io::Error::from_raw_os_error(libc::ESRCH);

        let inside = waiting_in(&run, 0);
        member.kill_without_pidfd(inside, &gone);
        assert_eq!(
            terminated(inside),
            libc::SIGTERM,
            "killed though it was gone"
        );

        let inside = waiting_in(&run, 0);
        member.kill_without_pidfd(inside, &no_pidfds);
        assert_eq!(terminated(inside), libc::SIGKILL, "not killed by its pid");

        let outside = sleeper();
        member.kill_without_pidfd(outside, &no_pidfds);
        assert_eq!(
            terminated(outside),
            libc::SIGTERM,
            "killed outside the cgroup"
        );
    }

    /// A process that ended between the reading of cgroup.procs and the opening of its
    /// pidfd (ESRCH) is passed over, as the race in `kill_all` needs.
    #[test]
    fn a_process_gone_before_its_pidfd_is_opened_is_passed_over() {
        let Some(run) = run_cgroup_or_skip("a_process_gone_before_its_pidfd_is_opened") else {
            return;
        };
        let gone = sleeper();
        // SAFETY: a signal to our own child, reaped at once: its pid names no process.
        unsafe { libc::kill(gone, libc::SIGKILL) };
        wait_for(gone);
        run.members[0].kill(gone);
    }

    /// Files that some kernels lack (swap accounting, cgroup.kill) are skipped when missing;
    /// any other failure to write one is an error that names it.
    #[test]
    fn a_file_the_kernel_lacks_is_skipped_and_any_other_failure_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        set_if_present(dir.path(), "memory.swap.max", "0").unwrap();
        assert!(!dir.path().join("memory.swap.max").exists());

        fs::write(dir.path().join("memory.memsw.limit_in_bytes"), "").unwrap();
        set_if_present(dir.path(), "memory.memsw.limit_in_bytes", "42").unwrap();
        let written = fs::read_to_string(dir.path().join("memory.memsw.limit_in_bytes"));
        assert_eq!(written.unwrap(), "42");

        // A directory where the file should be: opening it for writing fails (EISDIR).
        fs::create_dir(dir.path().join("cgroup.kill")).unwrap();
        let err = set_if_present(dir.path(), "cgroup.kill", "1").unwrap_err();
        assert!(err.to_string().contains("cgroup.kill"), "{err}");
    }

    #[test]
    fn kill_all_leaves_nothing_and_the_drop_removes_the_cgroup() {
        let Some(run) = run_cgroup_or_skip("kill_all_leaves_nothing") else {
            return;
        };
        let child = waiting_in(&run, 3);
        assert!(run.kill_all());
        assert!(run.is_empty());
        let status = wait_for(child);
        assert!(libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL);
        let dirs: Vec<PathBuf> = run.dirs().map(Path::to_path_buf).collect();
        drop(run);
        for dir in dirs {
            assert!(!dir.exists(), "{} is still there", dir.display());
        }
    }

    #[test]
    fn detect_removes_the_cgroups_of_a_dead_clings_and_keeps_a_live_ones() {
        let Some(cgroups) = cgroups_or_skip("detect_removes_stale_cgroups") else {
            return;
        };
        let _alone = SWEEPS.write().unwrap_or_else(|e| e.into_inner());
        // A pid that no process has any more: a child that ended and was reaped.
        // SAFETY: the child leaves at once.
        let dead = unsafe { libc::fork() };
        if dead == 0 {
            // SAFETY: leaving the child.
            unsafe { libc::_exit(0) };
        }
        wait_for(dead);
        let live = sleeper();
        let me = std::process::id();
        let stale_name = format!("{PREFIX}{}-{dead}-{me}", cgroups.namespace);
        let live_name = format!("{PREFIX}{}-{live}-{me}", cgroups.namespace);
        let other_namespace = format!("{PREFIX}{}-{dead}-{me}", cgroups.namespace + 1);

        // A stale cgroup with a process left in it, as after a clings killed by SIGKILL.
        let stale = RunCgroup::create_named(&cgroups, &stale_name, 64 << 20, 4).unwrap();
        let joiner = stale.joiner();
        // SAFETY: the child joins and pauses.
        let straggler = unsafe { libc::fork() };
        if straggler == 0 {
            // SAFETY: system calls only, in the child of a fork.
            unsafe {
                if joiner.join().is_err() {
                    libc::_exit(120);
                }
                loop {
                    libc::pause();
                }
            }
        }
        // However loaded the machine, the straggler must be in before the sweep: waited
        // for as an event, not for a while. Another clings on the machine (a test run
        // beside this one) may sweep the stale cgroup first, which ends the straggler the
        // same way this test's sweep would.
        let mut ended_status = None;
        while stale.is_empty() && ended_status.is_none() {
            let mut status = 0;
            // SAFETY: looking at our own child without waiting.
            let ended = unsafe { libc::waitpid(straggler, &mut status, libc::WNOHANG) };
            if ended == straggler {
                ended_status = Some(status);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let stale_dirs: Vec<PathBuf> = stale.dirs().map(Path::to_path_buf).collect();
        // Left behind, as the killed clings would have.
        std::mem::forget(stale);
        let kept = RunCgroup::create_named(&cgroups, &live_name, 64 << 20, 4).unwrap();
        let foreign = RunCgroup::create_named(&cgroups, &other_namespace, 64 << 20, 4).unwrap();

        Cgroups::detect().unwrap();
        for dir in &stale_dirs {
            assert!(!dir.exists(), "{} is still there", dir.display());
        }
        let status = ended_status.unwrap_or_else(|| wait_for(straggler));
        // Killed in the cgroup; or, when another clings swept it before the straggler was
        // in, unable to join (120): either way nothing of it is left.
        let killed = libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL;
        let swept_first = ended_status.is_some() && exit_code(status) == Some(120);
        assert!(
            killed || swept_first,
            "the straggler was not killed (status {status})"
        );
        for run in [&kept, &foreign] {
            for dir in run.dirs() {
                assert!(dir.exists(), "{} was removed", dir.display());
            }
        }
        // SAFETY: killing and reaping our own child.
        unsafe { libc::kill(live, libc::SIGKILL) };
        wait_for(live);
    }

    /// What a run cgroup costs: `cargo test --release --bins cgroup -- --ignored
    /// --nocapture cost`. The child times its own join (the writes of "0") into a
    /// shared page; the whole fork, join, exit and wait is compared with a child that does
    /// not join, since leaving from a cgroup of one's own costs at exit too.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn cost_of_a_run_cgroup() {
        let started = Instant::now();
        let Some(cgroups) = cgroups_or_skip("cost_of_a_run_cgroup") else {
            return;
        };
        let detect = started.elapsed();
        const ROUNDS: u32 = 1000;
        // SAFETY: a new shared page, which the forked children write their time into.
        let shared = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                4096,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(shared, libc::MAP_FAILED);
        let joined_ns = shared.cast::<u64>();
        let now_ns = || {
            let mut time = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: clock_gettime writes into `time`; async-signal-safe.
            unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut time) };
            time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64
        };
        let fork_and_exit = move |join: Option<Joiner>| {
            // SAFETY: the child joins (writes), notes the time it took, and leaves.
            let child = unsafe { libc::fork() };
            if child == 0 {
                let mut code = 0;
                if let Some(joiner) = join {
                    let started = now_ns();
                    // SAFETY: in the child of a fork.
                    code = i32::from(unsafe { joiner.join() }.is_err());
                    // SAFETY: the shared page outlives the child, which is the only
                    // one running.
                    unsafe { *joined_ns += now_ns() - started };
                }
                // SAFETY: leaving the child.
                unsafe { libc::_exit(code) };
            }
            assert_eq!(exit_code(wait_for(child)), Some(0));
        };
        // Rounds with and without a cgroup alternate, so that both see the same machine
        // (it is shared, and its load changes).
        let [
            mut baseline,
            mut create,
            mut run_child,
            mut check,
            mut reclaim,
            mut remove,
        ] = [Duration::ZERO; 6];
        for _ in 0..ROUNDS {
            let started = Instant::now();
            fork_and_exit(None);
            baseline += started.elapsed();
            let started = Instant::now();
            let run = RunCgroup::create(&cgroups, 64 << 20, 16).unwrap();
            create += started.elapsed();
            let started = Instant::now();
            fork_and_exit(Some(run.joiner()));
            run_child += started.elapsed();
            // What a reused cgroup costs besides the join: the check that the run left
            // nothing (the reads alone, as a child that exits leaves little), and the
            // reclaim that the check makes when a run left more.
            let started = Instant::now();
            assert!(run.reusable());
            check += started.elapsed();
            let started = Instant::now();
            run.reclaim();
            reclaim += started.elapsed();
            let started = Instant::now();
            drop(run);
            remove += started.elapsed();
        }
        // SAFETY: no child is running.
        let join = Duration::from_nanos(unsafe { *joined_ns }) / ROUNDS;
        let [baseline, create, run_child, check, reclaim, remove] =
            [baseline, create, run_child, check, reclaim, remove].map(|total| total / ROUNDS);
        let extra = run_child.saturating_sub(baseline);
        eprintln!(
            "{} ({ROUNDS} rounds), per run: create {create:?}, join {join:?} (fork, join, \
             exit and wait {run_child:?}, {extra:?} more than {baseline:?} without), drop \
             {remove:?}; in all {:?} more than without a cgroup; detect() {detect:?}; \
             reused: the check {check:?}, a reclaim {reclaim:?}",
            cgroups.describe(),
            create + extra + remove
        );
        // SAFETY: unmapping the page mapped above.
        unsafe { libc::munmap(shared, 4096) };
    }
}

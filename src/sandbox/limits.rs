//! What one run may use, and the resource limits (`setrlimit`) that enforce it inside the
//! process that becomes the student's program.

use std::io;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The largest file a program may write unless a course says otherwise: also the size of a
/// run's working directory, and so what a warm sandbox is started for.
pub const DEFAULT_FILE_SIZE_BYTES: u64 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Real time from start to end; enforced by a timer that kills the whole run.
    pub wall_time: Duration,
    /// CPU time (RLIMIT_CPU), which counts in whole seconds: rounded up.
    pub cpu_time: Duration,
    pub memory: Memory,
    /// Processes and threads the program may have at once, itself included (RLIMIT_NPROC).
    pub processes: u64,
    /// The largest file the program may write (RLIMIT_FSIZE); with isolation, also the
    /// size of its whole scratch directory.
    pub file_size_bytes: u64,
    /// Open file descriptors (RLIMIT_NOFILE), stdin, stdout and stderr included.
    pub open_files: u64,
    /// Per stream: past this many bytes on stdout or stderr the program is stopped.
    pub output_bytes: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    pub bytes: u64,
    pub enforcement: MemoryEnforcement,
}

/// How the memory limit is enforced depends on the build: see docs/security.md, "Limits".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryEnforcement {
    /// RLIMIT_AS: an allocation past the limit fails (malloc returns NULL). Fine for plain
    /// and UndefinedBehaviorSanitizer builds.
    AddressSpace,
    /// AddressSanitizer reserves terabytes of address space for its shadow memory, mapped
    /// writable: a plain address-space or data limit would stop every program at start.
    /// Its own allocator enforces the limit and reports it (`hard_rss_limit_mb`,
    /// `max_allocation_size_mb`), but its RSS check is a thread that a forked child does
    /// not have: RLIMIT_DATA and RLIMIT_AS hold every process to the limit past what the
    /// toolchain's programs have mapped when they start, their soft limit at the limit and
    /// their hard limit [`REPORT_ROOM`] higher, for AddressSanitizer's report (see
    /// `compile::toolchain::REPORT_ROOM_HOOK`).
    Sanitizer(StartFootprint),
    /// RLIMIT_AS at `address_space_bytes`, above the limit: for programs whose allocator
    /// and threads reserve address space they never use (glibc's arena of 64 MiB a thread,
    /// a thread's stack: a Gomocup engine sizing its table to the memory it is told). The
    /// memory they use is held to the limit by the run's cgroup or, where there is none,
    /// by its helper's watch of the run's processes.
    InUse { address_space_bytes: u64 },
}

/// What a program of the toolchain has mapped when it starts, before it allocates anything
/// (AddressSanitizer's shadow, its runtime and the C library's), measured once per
/// compiler by running one (see `compile::toolchain::Toolchain`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartFootprint {
    /// What RLIMIT_DATA counts: private writable mappings (`VmData`).
    pub data_bytes: u64,
    /// What RLIMIT_AS counts: every mapping (`VmSize`).
    pub address_space_bytes: u64,
}

/// Past the memory limit, up to the hard RLIMIT_DATA and RLIMIT_AS of an AddressSanitizer
/// build: the room its report of an allocation refused at the limit needs (listing the
/// modules, symbolizing the stack). Without it the report fails to map its own memory and
/// hangs (gcc 12); 8 MiB was enough here, for a stack of three frames.
pub const REPORT_ROOM: u64 = 32 << 20;

impl Limits {
    /// RLIMIT_CPU's soft limit in whole seconds; at the soft limit the program gets SIGXCPU.
    pub fn cpu_seconds(&self) -> u64 {
        self.cpu_time.as_millis().div_ceil(1000).max(1) as u64
    }

    /// The resource limits for the program's process. `processes` is passed separately
    /// because what RLIMIT_NPROC counts depends on the isolation (see [`super::isolation`]).
    pub fn rlimits(&self, processes: u64) -> Rlimits {
        let cpu = self.cpu_seconds();
        let mut rlimits = Rlimits::default();
        rlimits.push(Resource::Core, 0, 0);
        // The hard limit a second later stops a program that catches or ignores SIGXCPU.
        rlimits.push(Resource::Cpu, cpu, cpu + 1);
        rlimits.push(Resource::Processes, processes, processes);
        rlimits.push(
            Resource::FileSize,
            self.file_size_bytes,
            self.file_size_bytes,
        );
        rlimits.push(Resource::OpenFiles, self.open_files, self.open_files);
        let bytes = self.memory.bytes;
        match self.memory.enforcement {
            MemoryEnforcement::AddressSpace => {
                rlimits.push(Resource::AddressSpace, bytes, bytes);
            }
            MemoryEnforcement::InUse {
                address_space_bytes,
            } => {
                rlimits.push(
                    Resource::AddressSpace,
                    address_space_bytes,
                    address_space_bytes,
                );
            }
            MemoryEnforcement::Sanitizer(start) => {
                // Shared mappings are not data: the address space holds them.
                for (resource, mapped) in [
                    (Resource::Data, start.data_bytes),
                    (Resource::AddressSpace, start.address_space_bytes),
                ] {
                    let soft = mapped.saturating_add(bytes);
                    rlimits.push(resource, soft, soft.saturating_add(REPORT_ROOM));
                }
            }
        }
        rlimits
    }

    /// The sanitizer options that enforce the memory limit, appended to what the toolchain
    /// asked for; `env` is otherwise passed through unchanged.
    pub fn program_env(&self, env: &[(String, String)]) -> Vec<(String, String)> {
        let mut env = env.to_vec();
        if let MemoryEnforcement::Sanitizer(_) = self.memory.enforcement {
            add_address_sanitizer_limits(&mut env, self.memory.bytes);
        }
        env
    }

    /// Whether a run that failed was most likely stopped by the address-space limit: its
    /// peak resident memory came close to the limit. A failed allocation leaves no other
    /// trace (malloc returns NULL and the program crashes or gives up later). "Close" allows
    /// for the address space that is never resident: libraries and the sanitizer runtime
    /// take about 12 MiB of it (measured: a program that allocates until malloc fails
    /// peaks at 23 MiB resident under 32 MiB, 56 under 64, 247 under 256).
    pub fn near_memory_limit(&self, peak_bytes: u64) -> bool {
        const UNMAPPED_ALLOWANCE: u64 = 16 << 20;
        let limit = self.memory.bytes;
        self.memory.enforcement == MemoryEnforcement::AddressSpace
            && peak_bytes >= (limit / 2).max(limit.saturating_sub(UNMAPPED_ALLOWANCE))
    }
}

/// Appends to `ASAN_OPTIONS` in `env` the options that hold an AddressSanitizer build to
/// `bytes` of memory. The RSS check runs about every 100 ms, in a thread that starts with
/// the program, so a fast allocator can go a little past the limit before it is stopped;
/// a single allocation past it is refused at once. What AddressSanitizer keeps from reuse
/// to catch a use after free (its quarantine, 256 MiB by default) is held to a quarter of
/// the limit: it counts as the program's memory, and a program that freed all it had
/// allocated would be stopped for it.
pub fn add_address_sanitizer_limits(env: &mut Vec<(String, String)>, bytes: u64) {
    let mb = bytes.div_ceil(1024 * 1024);
    let quarantine_mb = mb / 4;
    let extra = format!(
        "hard_rss_limit_mb={mb}:max_allocation_size_mb={mb}:allocator_may_return_null=0:\
         quarantine_size_mb={quarantine_mb}"
    );
    match env.iter_mut().find(|(key, _)| key == "ASAN_OPTIONS") {
        Some((_, value)) if !value.is_empty() => *value = format!("{value}:{extra}"),
        Some((_, value)) => *value = extra,
        None => env.push(("ASAN_OPTIONS".into(), extra)),
    }
}

/// The limits clings sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Resource {
    Core,
    Cpu,
    Processes,
    FileSize,
    OpenFiles,
    AddressSpace,
    Data,
}

impl Resource {
    const ALL: [Resource; 7] = [
        Resource::Core,
        Resource::Cpu,
        Resource::Processes,
        Resource::FileSize,
        Resource::OpenFiles,
        Resource::AddressSpace,
        Resource::Data,
    ];

    /// The `RLIMIT_*` number, whose type differs between C libraries.
    fn number(self) -> i64 {
        (match self {
            Resource::Core => libc::RLIMIT_CORE,
            Resource::Cpu => libc::RLIMIT_CPU,
            Resource::Processes => libc::RLIMIT_NPROC,
            Resource::FileSize => libc::RLIMIT_FSIZE,
            Resource::OpenFiles => libc::RLIMIT_NOFILE,
            Resource::AddressSpace => libc::RLIMIT_AS,
            Resource::Data => libc::RLIMIT_DATA,
        }) as i64
    }
}

const MAX_RLIMITS: usize = Resource::ALL.len();

/// A fixed-size list of limits, built before the fork so that applying it in the child
/// allocates nothing (only async-signal-safe calls are allowed there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rlimits {
    entries: [Option<(Resource, u64, u64)>; MAX_RLIMITS],
}

impl Rlimits {
    fn push(&mut self, resource: Resource, soft: u64, hard: u64) {
        let slot = self
            .entries
            .iter_mut()
            .find(|entry| entry.is_none())
            .expect("room for every limit");
        *slot = Some((resource, soft, hard));
    }

    /// Sets every limit on the calling process; safe between fork and exec.
    pub fn apply(&self) -> io::Result<()> {
        for (resource, soft, hard) in self.entries.iter().flatten() {
            let limit = libc::rlimit {
                rlim_cur: *soft as libc::rlim_t,
                rlim_max: *hard as libc::rlim_t,
            };
            // SAFETY: setrlimit reads the struct it is given.
            if unsafe { libc::setrlimit(resource.number() as _, &limit) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// The most bytes a file of the run may hold (`RLIMIT_FSIZE`), when limited.
    pub fn file_size(&self) -> Option<u64> {
        self.entries
            .iter()
            .flatten()
            .find(|(resource, ..)| *resource == Resource::FileSize)
            .map(|(_, _, hard)| *hard)
    }
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// The soft and hard limit `rlimits` sets on `resource`.
    fn set(rlimits: &Rlimits, resource: Resource) -> Option<(u64, u64)> {
        rlimits
            .entries
            .iter()
            .flatten()
            .find(|(known, _, _)| *known == resource)
            .map(|&(_, soft, hard)| (soft, hard))
    }

    pub const LIMITS: Limits = Limits {
        wall_time: Duration::from_secs(2),
        cpu_time: Duration::from_millis(1500),
        memory: Memory {
            bytes: 256 << 20,
            enforcement: MemoryEnforcement::AddressSpace,
        },
        processes: 16,
        file_size_bytes: 1 << 20,
        open_files: 64,
        output_bytes: 65536,
    };

    #[test]
    fn cpu_time_rounds_up_to_whole_seconds() {
        assert_eq!(LIMITS.cpu_seconds(), 2);
        let short = Limits {
            cpu_time: Duration::from_millis(1),
            ..LIMITS
        };
        assert_eq!(short.cpu_seconds(), 1);
    }

    #[test]
    fn rlimits_survive_the_helpers_protocol() {
        let rlimits = LIMITS.rlimits(18);
        assert_eq!(set(&rlimits, Resource::Processes), Some((18, 18)));
        assert_eq!(set(&rlimits, Resource::Cpu), Some((2, 3)));
        assert_eq!(
            set(&rlimits, Resource::AddressSpace),
            Some((256 << 20, 256 << 20))
        );
        let json = serde_json::to_string(&rlimits).unwrap();
        assert_eq!(serde_json::from_str::<Rlimits>(&json).unwrap(), rlimits);
        assert!(serde_json::from_str::<Rlimits>(r#"{"entries":[["Bogus",1,2]]}"#).is_err());
    }

    #[test]
    fn near_the_memory_limit_allows_for_what_is_never_resident() {
        let mib = |n: u64| n << 20;
        assert!(LIMITS.near_memory_limit(mib(247)));
        assert!(!LIMITS.near_memory_limit(mib(200)));
        let small = Limits {
            memory: Memory {
                bytes: mib(32),
                ..LIMITS.memory
            },
            ..LIMITS
        };
        assert!(small.near_memory_limit(mib(23)));
        assert!(!small.near_memory_limit(mib(10)));
        // Under 32 MiB the allowance would swallow the limit: half of it counts instead.
        let tiny = Limits {
            memory: Memory {
                bytes: mib(16),
                ..LIMITS.memory
            },
            ..LIMITS
        };
        assert!(tiny.near_memory_limit(mib(9)));
        assert!(!tiny.near_memory_limit(mib(4)));
    }

    #[test]
    fn address_sanitizer_builds_get_allocator_limits_and_kernel_limits_past_their_start() {
        let start = StartFootprint {
            data_bytes: 15 << 40,
            address_space_bytes: 20 << 40,
        };
        let asan = Limits {
            memory: Memory {
                bytes: 256 << 20,
                enforcement: MemoryEnforcement::Sanitizer(start),
            },
            ..LIMITS
        };
        // Every process holds the limit past what it started with; the hard limits leave
        // room for AddressSanitizer's report, which the program cannot take past.
        let rlimits = asan.rlimits(16);
        for (resource, mapped) in [
            (Resource::Data, 15u64 << 40),
            (Resource::AddressSpace, 20 << 40),
        ] {
            let soft = mapped + (256 << 20);
            assert_eq!(set(&rlimits, resource), Some((soft, soft + REPORT_ROOM)));
        }
        assert_eq!(set(&LIMITS.rlimits(16), Resource::Data), None);
        let env = asan.program_env(&[("ASAN_OPTIONS".into(), "exitcode=86".into())]);
        assert_eq!(
            env[0].1,
            "exitcode=86:hard_rss_limit_mb=256:max_allocation_size_mb=256:allocator_may_return_null=0:\
             quarantine_size_mb=64"
        );
        assert!(LIMITS.program_env(&[]).is_empty());
        // Set but empty, or not set: the limits are all there is, with no empty option.
        let limits_only = "hard_rss_limit_mb=256:max_allocation_size_mb=256:allocator_may_return_null=0:\
             quarantine_size_mb=64";
        let env = asan.program_env(&[("ASAN_OPTIONS".into(), String::new())]);
        assert_eq!(env, [("ASAN_OPTIONS".to_string(), limits_only.to_string())]);
        let env = asan.program_env(&[]);
        assert_eq!(env, [("ASAN_OPTIONS".to_string(), limits_only.to_string())]);
    }
}

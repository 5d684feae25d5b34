//! The C toolchain: which compiler, which flags, whether sanitizers work, and the key of
//! each build, everything that can change the program, under which the build cache
//! ([`crate::compile::cache`]) keeps it, so an unchanged file is never compiled twice.
//!
//! A student's source is untrusted input to the compiler too: an `#include` or `.incbin`
//! can read any file the compiler can, and a file that never ends holds it for ever. So
//! the compiler runs like a student's program, contained and limited, on a private copy
//! of exactly the bytes that were hashed, and sees nothing but that copy and the system.

use std::borrow::Cow;
use std::io::{ErrorKind, Read};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::compile::cache::{Build, BuildCache, Claim};
use crate::course::Defaults;
use crate::sandbox::{
    Job, Limits, Memory, MemoryEnforcement, Program, Sandbox, StartFootprint, Stop, Termination,
    add_address_sanitizer_limits, find_on_path, is_system_path,
};
use crate::util::i18n::{Lang, Localized};
use crate::util::timings::{self, Phase};
use crate::util::{digest, temp};
use crate::verdict::SANITIZER_EXIT_CODE;

/// Where the compile leaves the program and gcc's dependency list, in its working directory.
const OUTPUT: &str = ".clings-program";
const DEPENDENCY_OUTPUT: &str = ".clings-deps";
/// A source larger than this is refused before the compiler sees it.
const MAX_SOURCE_BYTES: u64 = 1 << 20;

/// What a compile may use: a C file of the course's size takes a fraction of each.
const COMPILE_LIMITS: Limits = Limits {
    wall_time: Duration::from_secs(10),
    cpu_time: Duration::from_secs(10),
    memory: Memory {
        bytes: 1 << 30,
        enforcement: MemoryEnforcement::AddressSpace,
    },
    // gcc, cc1, as, collect2 and ld; never many at once.
    processes: 16,
    file_size_bytes: 64 << 20,
    // The linker opens every library it searches.
    open_files: 256,
    output_bytes: 256 << 10,
};

#[derive(Clone)]
pub struct Toolchain {
    /// The compiler command and any arguments that came with it in `$CC`.
    command: Vec<String>,
    /// The compiler's executable, found on `PATH`.
    compiler: PathBuf,
    /// What `--version` printed: a different compiler means a different cache key.
    identity: String,
    flags: Vec<String>,
    /// The sanitizers that this compiler accepted, in the course's order.
    sanitizers: Vec<String>,
    /// Checks of those sanitizers an exercise's builds go without (`-fno-sanitize=`).
    left_out: Vec<String>,
    /// How a program built with UBSan links the libraries its runs load.
    linking: Linking,
    /// What an AddressSanitizer build has mapped when it starts, past which its runs'
    /// memory is limited; `None` without AddressSanitizer.
    footprint: Option<StartFootprint>,
    /// Things the student should know about the toolchain, e.g. a sanitizer fallback.
    pub warnings: Vec<String>,
    /// The language of what clings adds to the compiler's diagnostics.
    lang: Lang,
}

impl Toolchain {
    /// Picks the compiler (`$CC`, then the course's, then `cc`) and asks its identity; the
    /// course's flags, no sanitizer yet (see [`Toolchain::with_sanitizers`]).
    pub fn detect(defaults: &Defaults, lang: Lang) -> Result<Toolchain> {
        let (spec, origin) = match std::env::var("CC") {
            Ok(cc) if !cc.trim().is_empty() => (cc, "$CC"),
            _ => match &defaults.compiler {
                Some(cc) => (cc.clone(), "the compiler key of info.toml"),
                None => ("cc".to_string(), "the default"),
            },
        };
        let command: Vec<String> = spec.split_whitespace().map(String::from).collect();
        let identity = compiler_identity(&command, origin)?;
        let compiler = find_executable(&command[0])
            .with_context(|| format!("cannot find the C compiler `{}` on PATH", command[0]))?;
        let toolchain = Toolchain {
            command,
            compiler,
            identity,
            flags: defaults.flags.clone(),
            sanitizers: Vec::new(),
            left_out: Vec::new(),
            linking: Linking::Shared,
            footprint: None,
            warnings: Vec::new(),
            lang,
        };
        Ok(toolchain)
    }

    /// The same compiler and flags with the sanitizers `wanted` (`-fsanitize=` names), as
    /// far as the compiler supports them; a warning says which it does not.
    /// What the compiler supports is asked once and kept in `probe_dir`.
    pub fn with_sanitizers(&self, wanted: &[String], probe_dir: &Path) -> Result<Toolchain> {
        let mut toolchain = self.clone();
        toolchain.warnings.clear();
        let probed = self.supported_sanitizers(wanted, probe_dir)?;
        toolchain.sanitizers = probed.sanitizers;
        toolchain.linking = match probed.static_runtime {
            true => Linking::RuntimeIn,
            false => Linking::Shared,
        };
        toolchain.footprint = probed.footprint;
        let missing: Vec<&str> = wanted
            .iter()
            .filter(|name| !toolchain.sanitizers.contains(name))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            toolchain.warnings.push(format!(
                "{} does not support -fsanitize={}: programs run without it, so some \
                 out-of-bounds accesses will not be caught (install gcc's libubsan/libasan)",
                toolchain.command[0],
                missing.join(",")
            ));
        }
        Ok(toolchain)
    }

    /// The same toolchain with an exercise's own `extra` flags after the course's, and
    /// without the sanitizers' checks it leaves out: a build with them is another build,
    /// under another key.
    pub fn for_exercise(&self, extra: &[String], left_out: &[String]) -> Cow<'_, Toolchain> {
        if extra.is_empty() && left_out.is_empty() {
            return Cow::Borrowed(self);
        }
        let mut toolchain = self.clone();
        toolchain.flags.extend(extra.iter().cloned());
        toolchain.left_out.extend(left_out.iter().cloned());
        Cow::Owned(toolchain)
    }

    /// What the compiler says when it refuses this toolchain's flags, reading a program
    /// that does nothing (its options are read before any code: 10 ms, where a build and
    /// link would be 36): an exercise's own flags or left-out checks it does not know. None
    /// when it accepts them (or cannot be asked: the builds will say why).
    pub fn refusal(&self) -> Option<String> {
        let scratch = tempfile::tempdir().ok()?;
        let source = empty_program(scratch.path())?;
        let output = self
            .compiler_command()
            .args(self.flags())
            .arg("-fsyntax-only")
            .arg(&source)
            .output()
            .ok()?;
        let said = String::from_utf8_lossy(&output.stderr);
        (!output.status.success()).then(|| {
            let error = said.lines().find(|line| line.contains("error"));
            error.unwrap_or(said.trim()).trim().to_string()
        })
    }

    /// The compiler, with the arguments that came with it in `$CC`, run outside the
    /// sandbox: only on programs of clings' own (probes), never a student's.
    /// This toolchain linking everything into its programs (see [`Linking::Whole`]), where
    /// it links the UBSan runtime in and the compiler can link the rest (a system without
    /// a static C library cannot); asked once per compiler and kept in `probe_dir`.
    pub fn linked_whole(&self, probe_dir: &Path) -> Option<Toolchain> {
        if self.linking != Linking::RuntimeIn {
            return None;
        }
        let probe_file = probe_dir.join(format!(
            "probe-whole-{}",
            digest::of(&[
                self.identity.as_bytes(),
                self.sanitizers.join(",").as_bytes()
            ])
        ));
        let links = match std::fs::read_to_string(&probe_file).as_deref() {
            Ok("yes") => true,
            Ok("no") => false,
            _ => {
                let scratch = tempfile::tempdir().ok()?;
                let flags = sanitizer_flags(&self.sanitizers, Linking::Whole);
                let links = self.builds_empty_program(flags, scratch.path());
                let answer: &[u8] = if links { b"yes" } else { b"no" };
                let _ = crate::util::atomic::write(&probe_file, answer);
                links
            }
        };
        links.then(|| Toolchain {
            linking: Linking::Whole,
            ..self.clone()
        })
    }

    /// Whether the compiler builds an empty program with `flags`, in `scratch`.
    fn builds_empty_program(&self, flags: Vec<String>, scratch: &Path) -> bool {
        empty_program(scratch).is_some_and(|source| {
            self.compiler_command()
                .args(flags)
                .arg(&source)
                .arg("-o")
                .arg(scratch.join("probe"))
                .output()
                .is_ok_and(|output| output.status.success())
        })
    }

    fn compiler_command(&self) -> Command {
        let mut command = Command::new(&self.command[0]);
        command.args(&self.command[1..]);
        command
    }

    pub fn uses_sanitizers(&self) -> bool {
        !self.sanitizers.is_empty()
    }

    /// How the memory limit of a program built here is enforced.
    pub fn memory_enforcement(&self) -> MemoryEnforcement {
        match self.footprint {
            Some(start) => MemoryEnforcement::Sanitizer(start),
            None => MemoryEnforcement::AddressSpace,
        }
    }

    /// The source compiled into every program built here besides the student's:
    /// [`REPORT_ROOM_HOOK`] with AddressSanitizer.
    fn hook(&self) -> Option<&'static str> {
        self.footprint.map(|_| REPORT_ROOM_HOOK)
    }

    /// Every flag a compile gets, without the source and output paths.
    pub fn flags(&self) -> Vec<String> {
        let mut flags = self.flags.clone();
        flags.extend(sanitizer_flags(&self.sanitizers, self.linking));
        // After the sanitizers, whose groups (`undefined`) would turn the checks on again.
        if self.uses_sanitizers() && !self.left_out.is_empty() {
            flags.push(format!("-fno-sanitize={}", self.left_out.join(",")));
        }
        flags
    }

    /// Environment for running a program built here: sanitizer reports end the program
    /// with [`SANITIZER_EXIT_CODE`] and print a stack trace.
    pub fn runtime_env(&self) -> Vec<(String, String)> {
        match self.uses_sanitizers() {
            true => sanitizer_env(),
            false => Vec::new(),
        }
    }

    /// Compiles `source` (as named relative to `cwd`, so diagnostics show that name) in
    /// `sandbox`, reusing a build in `cache` when nothing that matters has changed.
    pub fn compile(
        &self,
        source: &Path,
        cwd: &Path,
        cache: &BuildCache,
        sandbox: &Sandbox,
    ) -> Result<Build> {
        let _timing = timings::measure(Phase::Compile);
        let code = match read_source(cwd, source)? {
            Ok(code) => code,
            Err(refusal) => return Ok(Build::refused(refusal.text(self.lang))),
        };
        let flags = self.flags();
        let name = name_in_sandbox(source);
        let key = self.cache_key(&name, &code);
        let _claim = loop {
            if let Some(build) = cache.lookup(&key) {
                return Ok(build);
            }
            if let Some(claim) = Claim::take(cache, &key) {
                break claim;
            }
        };

        // The compile's working directory holds the source and nothing else; the run's
        // user may write there, so it is not in the cache, which only clings writes.
        let work = temp::dir("clings-build-", "a directory to compile in")?;
        let copy = work.path().join(&name);
        if let Some(parent) = copy.parent() {
            std::fs::create_dir_all(parent).context("cannot create a directory to compile in")?;
        }
        std::fs::write(&copy, &code).context("cannot copy the source to compile it")?;
        let mut args: Vec<String> = self.command[1..].to_vec();
        args.extend(flags);
        args.extend(
            [
                "-fdiagnostics-color=always",
                "-MD",
                "-MF",
                DEPENDENCY_OUTPUT,
            ]
            .map(String::from),
        );
        if let Some(hook) = self.hook() {
            std::fs::write(work.path().join(HOOK_SOURCE), hook)
                .context("cannot write the source clings adds to the build")?;
            // Before the student's: gcc writes the -MF file for each source in turn, and
            // the last one's list is the one kept.
            args.push(HOOK_SOURCE.into());
        }
        args.extend(
            [
                &*name.to_string_lossy(),
                "-o",
                OUTPUT,
                // The math library for a program that calls it, not loaded by every run.
                "-Wl,--as-needed",
                "-lm",
            ]
            .map(String::from),
        );
        let env = locale_env();
        let job = Job {
            program: Program::Installed(&self.compiler),
            args: &args,
            input: None,
            env: &env,
            workdir: Some(work.path()),
            files: crate::sandbox::RunFiles::default(),
            conversation: None,
            folders: None,
        };
        let outcome = sandbox
            .run(&job, COMPILE_LIMITS)
            .with_context(|| format!("cannot run the compiler {}", self.command[0]))?;
        let mut diagnostics = String::from_utf8_lossy(&outcome.stdout).into_owned();
        diagnostics.push_str(&String::from_utf8_lossy(&outcome.stderr));
        if let Some(stopped) = stopped_compiler(outcome.stopped, outcome.termination) {
            // Not cached: the same source may compile on a less busy machine.
            let why = self.lang.pick(stopped.en, stopped.zh);
            return Ok(Build::refused(with_last_line(diagnostics, &why)));
        }
        let built = outcome.termination == Termination::Exited(0);
        let dependencies = match built {
            true => std::fs::read_to_string(work.path().join(DEPENDENCY_OUTPUT))
                .map(|text| record_dependencies(&text, &name))
                .unwrap_or_default(),
            false => String::new(),
        };
        // A file the cache cannot vouch for (outside the system's directories, which only
        // a compile without isolation can read) makes no build: it is the student's to
        // remove, not the grader's to fail on.
        let outside = unrecorded(&dependencies);
        if !outside.is_empty() {
            let why = self.lang.pick(
                format!(
                    "{} includes {}, outside the system's headers, which are all a program may \
                     include: isolated, the compiler sees nothing else",
                    name.display(),
                    outside.join(", ")
                ),
                format!(
                    "{} 包含了 {}，不在系统头文件之中；程序只能包含系统头文件：隔离运行时编译器看不到别的文件",
                    name.display(),
                    outside.join("、")
                ),
            );
            return Ok(Build::refused(with_last_line(diagnostics, &why)));
        }
        cache.publish(
            &key,
            built.then(|| work.path().join(OUTPUT)).as_deref(),
            &diagnostics,
            &dependencies,
        )
    }

    /// What a build depends on besides the headers it includes: the toolchain's
    /// [`fingerprint`](Toolchain::fingerprint), the name the source is compiled under
    /// (diagnostics quote it) and the code.
    fn cache_key(&self, name: &Path, code: &[u8]) -> String {
        digest::of(&[
            self.fingerprint().as_bytes(),
            name.to_string_lossy().as_bytes(),
            code,
        ])
    }

    /// What every build by this toolchain depends on, whatever the source: the compiler,
    /// its flags (the sanitizers it accepted among them) and what clings adds to the build.
    pub fn fingerprint(&self) -> String {
        digest::of(&[
            self.identity.as_bytes(),
            self.command.join(" ").as_bytes(),
            self.flags().join("\0").as_bytes(),
            self.hook().unwrap_or_default().as_bytes(),
        ])
    }

    /// Which of the sanitizers `wanted` the compiler accepts (building a program with them
    /// shows it), whether it links the UBSan runtime in, and what an AddressSanitizer
    /// build maps at its start: asked once per compiler (and kernel) and kept in
    /// `probe_dir`. A build with AddressSanitizer keeps its runtime shared (linked in, it
    /// starts slower).
    fn supported_sanitizers(&self, wanted: &[String], probe_dir: &Path) -> Result<Probed> {
        if wanted.is_empty() {
            return Ok(Probed::default());
        }
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let probe_file = probe_dir.join(format!(
            "probe-{}",
            digest::of(&[
                self.identity.as_bytes(),
                wanted.join(",").as_bytes(),
                STATIC_RUNTIME.as_bytes(),
                FOOTPRINT_PROBE.as_bytes(),
                REPORT_ROOM_HOOK.as_bytes(),
                kernel.as_bytes(),
            ])
        ));
        if let Some(known) = std::fs::read_to_string(&probe_file)
            .ok()
            .and_then(|text| Probed::parse(&text))
        {
            return Ok(known);
        }
        let scratch =
            tempfile::tempdir().context("cannot create a directory to probe the compiler")?;
        let accepts = |names: &[String], linking: Linking| {
            self.builds_empty_program(sanitizer_flags(names, linking), scratch.path())
        };
        let linkable = wanted.iter().any(|name| name == "undefined")
            && !wanted.iter().any(|name| name == "address");
        let (mut sanitizers, static_runtime) = if linkable && accepts(wanted, Linking::RuntimeIn) {
            (wanted.to_vec(), true)
        } else if accepts(wanted, Linking::Shared) {
            (wanted.to_vec(), false)
        } else {
            let names = wanted
                .iter()
                .filter(|name| accepts(std::slice::from_ref(name), Linking::Shared))
                .cloned()
                .collect();
            (names, false)
        };
        let footprint = match sanitizers.iter().any(|name| name == "address") {
            true => self.measure_footprint(&sanitizers, scratch.path()),
            false => None,
        };
        // An AddressSanitizer build that cannot be run here is no use.
        if footprint.is_none() {
            sanitizers.retain(|name| name != "address");
        }
        let probed = Probed {
            sanitizers,
            static_runtime,
            footprint,
        };
        // The probe result is only an optimisation: failing to store it is not an error.
        // Written whole: another clings reading half of it would drop a sanitizer.
        let _ = crate::util::atomic::write(&probe_file, probed.record().as_bytes());
        Ok(probed)
    }

    /// What a program built with `sanitizers` (AddressSanitizer among them) has mapped
    /// when it starts, [`FOOTPRINT_PROBE`] built in `scratch` and run as runs are, with
    /// AddressSanitizer's memory options (its RSS check is a thread, whose stack counts);
    /// `None` when it cannot be built or run.
    fn measure_footprint(&self, sanitizers: &[String], scratch: &Path) -> Option<StartFootprint> {
        let source = scratch.join("footprint.c");
        let hook = scratch.join(HOOK_SOURCE);
        let program = scratch.join("footprint");
        std::fs::write(&source, FOOTPRINT_PROBE).ok()?;
        std::fs::write(&hook, REPORT_ROOM_HOOK).ok()?;
        let built = self
            .compiler_command()
            .args(sanitizer_flags(sanitizers, Linking::Shared))
            .arg(&hook)
            .arg(&source)
            .arg("-o")
            .arg(&program)
            .output()
            .ok()?;
        if !built.status.success() {
            return None;
        }
        let mut env = sanitizer_env();
        // Any limit: its value maps nothing, but with one the RSS check's thread starts.
        add_address_sanitizer_limits(&mut env, 256 << 20);
        let ran = Command::new(&program).env_clear().envs(env).output().ok()?;
        if !ran.status.success() {
            return None;
        }
        parse_footprint(&String::from_utf8_lossy(&ran.stdout))
    }
}

/// What [`Toolchain::supported_sanitizers`] finds out, and keeps in its record.
#[derive(Debug, Default, PartialEq, Eq)]
struct Probed {
    sanitizers: Vec<String>,
    static_runtime: bool,
    footprint: Option<StartFootprint>,
}

impl Probed {
    /// One line per sanitizer, then [`STATIC_RUNTIME`] if so, then `+footprint <VmData>
    /// <VmSize>` in bytes with AddressSanitizer.
    fn record(&self) -> String {
        let mut lines = self.sanitizers.clone();
        if self.static_runtime {
            lines.push(STATIC_RUNTIME.to_string());
        }
        if let Some(start) = self.footprint {
            lines.push(format!(
                "{FOOTPRINT} {} {}",
                start.data_bytes, start.address_space_bytes
            ));
        }
        lines.join("\n")
    }

    /// A record read back; `None` if it is not whole (AddressSanitizer without its
    /// footprint).
    fn parse(text: &str) -> Option<Probed> {
        let mut probed = Probed::default();
        for line in text.lines() {
            if line == STATIC_RUNTIME {
                probed.static_runtime = true;
            } else if let Some(numbers) = line.strip_prefix(FOOTPRINT) {
                let mut numbers = numbers.split_whitespace().map(str::parse);
                probed.footprint = Some(StartFootprint {
                    data_bytes: numbers.next()?.ok()?,
                    address_space_bytes: numbers.next()?.ok()?,
                });
            } else {
                probed.sanitizers.push(line.to_string());
            }
        }
        let address = probed.sanitizers.iter().any(|name| name == "address");
        (address == probed.footprint.is_some()).then_some(probed)
    }
}

/// The probe record's line for a compiler that links the UBSan runtime in (and libgcc,
/// whose unwinder it uses).
const STATIC_RUNTIME: &str = "+static-libubsan+static-libgcc";

/// The start of the probe record's line for what an AddressSanitizer build maps at start.
const FOOTPRINT: &str = "+footprint";

/// Prints its `VmData` and `VmSize` lines, having allocated nothing: what a program built
/// this way has mapped when it starts.
const FOOTPRINT_PROBE: &str = r#"#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    static char status[1 << 16];
    int fd = open("/proc/self/status", O_RDONLY);
    ssize_t length = fd < 0 ? -1 : read(fd, status, sizeof status - 1);
    if (length <= 0)
        return 1;
    for (char *line = strtok(status, "\n"); line != NULL; line = strtok(NULL, "\n"))
        if (strncmp(line, "VmData:", 7) == 0 || strncmp(line, "VmSize:", 7) == 0)
            if (write(1, line, strlen(line)) < 0 || write(1, "\n", 1) < 0)
                return 1;
    return 0;
}
"#;

/// `VmData` and `VmSize` of /proc/<pid>/status, in kB there, in bytes here.
fn parse_footprint(status: &str) -> Option<StartFootprint> {
    let kilobytes = |key: &str| -> Option<u64> {
        let line = status.lines().find_map(|line| line.strip_prefix(key))?;
        line.trim().strip_suffix("kB")?.trim().parse().ok()
    };
    Some(StartFootprint {
        data_bytes: kilobytes("VmData:")? * 1024,
        address_space_bytes: kilobytes("VmSize:")? * 1024,
    })
}

/// Where a build keeps [`REPORT_ROOM_HOOK`], in its working directory.
const HOOK_SOURCE: &str = ".clings-report-room.c";

/// Compiled into every AddressSanitizer build. Its runs' RLIMIT_DATA and RLIMIT_AS are at
/// the memory limit (soft) and a little higher (hard, see `sandbox::limits::REPORT_ROOM`):
/// when an allocation is refused at the limit, AddressSanitizer's report of it needs
/// memory of its own (gcc 12: 1.2 MiB to list the modules, more to symbolize), and
/// without it the report fails, then waits for ever on a lock it holds. AddressSanitizer
/// calls `__asan_on_error` before it prints any report: the hook lets the report have the
/// room up to the hard limits, which nothing can pass.
const REPORT_ROOM_HOOK: &str = r#"/* Added by clings to AddressSanitizer builds: room for the report of an allocation
   refused at the memory limit. */
#define _POSIX_C_SOURCE 200809L
#include <sys/resource.h>

void __asan_on_error(void);

void __asan_on_error(void)
{
    const int resources[] = { RLIMIT_DATA, RLIMIT_AS };
    for (unsigned i = 0; i < sizeof resources / sizeof resources[0]; i++) {
        struct rlimit limit;
        if (getrlimit(resources[i], &limit) == 0) {
            limit.rlim_cur = limit.rlim_max;
            setrlimit(resources[i], &limit);
        }
    }
}
"#;

/// The sanitizers' options for a program built with any (see [`Toolchain::runtime_env`]).
fn sanitizer_env() -> Vec<(String, String)> {
    let common = format!("exitcode={SANITIZER_EXIT_CODE}:print_stacktrace=1");
    vec![
        ("UBSAN_OPTIONS".into(), format!("{common}:halt_on_error=1")),
        ("ASAN_OPTIONS".into(), format!("{common}:detect_leaks=0")),
    ]
}

/// A program that does nothing, written in `dir` for the compiler's probes.
fn empty_program(dir: &Path) -> Option<PathBuf> {
    let source = dir.join("probe.c");
    std::fs::write(&source, "int main(void) { return 0; }\n").ok()?;
    Some(source)
}

/// How a build with UBSan (and not AddressSanitizer, whose runtime stays shared: linked
/// in, it starts slower) links the libraries its runs load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Linking {
    /// Shared, the sanitizer's runtime among them: where the compiler can link no other.
    Shared,
    /// The UBSan runtime linked in (`-static-libubsan`, and `-static-libgcc` for its
    /// unwinder): the dynamic one takes each run a third of its start-up time (2.1 ms
    /// against 1.5 ms of CPU for a check_win run on a board), loading libubsan, libstdc++
    /// and libgcc_s.
    RuntimeIn,
    /// Everything linked in (`-static`): a run loads no library at all (a check_win run on
    /// a board 0.2 ms against 0.7 ms), for a link about 20 ms longer (88 ms against 69 ms).
    /// Only for programs built once and run thousands of times (see
    /// [`Toolchain::linked_whole`]): a student's save waits for its link.
    Whole,
}

fn sanitizer_flags(names: &[String], linking: Linking) -> Vec<String> {
    if names.is_empty() {
        return Vec::new();
    }
    let mut flags: Vec<String> = names
        .iter()
        .map(|name| format!("-fsanitize={name}"))
        .collect();
    // UBSan prints and carries on by default; a report must stop the program and fail the case.
    flags.push("-fno-sanitize-recover=all".into());
    match linking {
        Linking::Shared => {}
        // And the unwinder its stack traces use: a run then loads no libgcc_s.
        Linking::RuntimeIn => flags.extend(["-static-libubsan".into(), "-static-libgcc".into()]),
        Linking::Whole => flags.push("-static".into()),
    }
    flags
}

fn compiler_identity(command: &[String], origin: &str) -> Result<String> {
    let Some(program) = command.first() else {
        bail!("the C compiler from {origin} is empty");
    };
    match Command::new(program)
        .args(&command[1..])
        .arg("--version")
        .output()
    {
        Ok(output) => Ok(String::from_utf8_lossy(&output.stdout).into_owned()),
        Err(err) if err.kind() == ErrorKind::NotFound => bail!(Localized::new(
            format!(
                "no C compiler found: `{program}` (from {origin}) is not installed.\n\
                 Install one, e.g. `sudo apt install gcc` (Debian, Ubuntu), `sudo dnf install gcc` \
                 (Fedora) or `xcode-select --install` (macOS), or point $CC at a compiler."
            ),
            format!(
                "找不到 C 编译器：`{program}`（来自 {origin}）没有安装。\n\
                 请安装一个，例如 `sudo apt install gcc`（Debian、Ubuntu）、`sudo dnf install gcc`\
                 （Fedora）或 `xcode-select --install`（macOS），或者让 $CC 指向一个编译器。"
            ),
        )),
        Err(err) => Err(err).with_context(|| format!("cannot run the C compiler `{program}`")),
    }
}

/// `text` with `line` added as a line of its own (a compiler's diagnostics may end
/// without a newline, or be empty).
fn with_last_line(mut text: String, line: &str) -> String {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(line);
    text.push('\n');
    text
}

/// `<digest> <path>` for every file in gcc's dependency list (`-MD`) but the source; a
/// file outside the system's directories (which a sandboxed compile cannot read) is
/// recorded with no digest (`-`), and makes the build a compile error.
fn record_dependencies(make_rule: &str, source: &Path) -> String {
    let mut lines = String::new();
    for path in parse_make_rule(make_rule) {
        if Path::new(&path) == source {
            continue;
        }
        let digest = is_system_path(Path::new(&path))
            .then(|| std::fs::read(&path).ok())
            .flatten()
            .map_or_else(|| "-".to_string(), |bytes| digest::of(&[&bytes]));
        lines.push_str(&format!("{digest} {path}\n"));
    }
    lines
}

/// The files of a dependency list (see [`record_dependencies`]) recorded with no digest.
fn unrecorded(recorded: &str) -> Vec<&str> {
    recorded
        .lines()
        .filter_map(|line| line.strip_prefix("- "))
        .collect()
}

/// The prerequisites of a make rule as gcc writes it: `target: a b \<newline> c`, with
/// spaces in names escaped by a backslash.
fn parse_make_rule(rule: &str) -> Vec<String> {
    let joined = rule.replace("\\\n", " ");
    let Some((_, prerequisites)) = joined.split_once(": ") else {
        return Vec::new();
    };
    let mut paths = Vec::new();
    let mut current = String::new();
    let mut chars = prerequisites.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(' ') => current.push(' '),
                Some(other) => {
                    current.push('\\');
                    current.push(other);
                }
                None => current.push('\\'),
            },
            c if c.is_whitespace() => {
                if !current.is_empty() {
                    paths.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        paths.push(current);
    }
    paths
}

/// Why clings did not hand a source to the compiler.
enum Refusal {
    Symlink(PathBuf),
    NotAFile(PathBuf),
    TooLarge(PathBuf),
}

impl Refusal {
    fn text(&self, lang: Lang) -> String {
        match self {
            Refusal::Symlink(path) => lang.pick(
                format!(
                    "clings: {} is a symbolic link, or inside one: submit the file itself",
                    path.display()
                ),
                format!(
                    "clings：{} 是符号链接（或位于符号链接之中）：请提交文件本身",
                    path.display()
                ),
            ),
            Refusal::NotAFile(path) => lang.pick(
                format!("clings: {} is not a regular file", path.display()),
                format!("clings：{} 不是普通文件", path.display()),
            ),
            Refusal::TooLarge(path) => lang.pick(
                format!(
                    "clings: {} is larger than {} KiB: not compiled",
                    path.display(),
                    MAX_SOURCE_BYTES / 1024
                ),
                format!(
                    "clings：{} 超过 {} KiB，不予编译",
                    path.display(),
                    MAX_SOURCE_BYTES / 1024
                ),
            ),
        }
    }
}

/// The bytes of a student's source as the compile would read them; none where the compile
/// refuses it (a link, a FIFO, a device, a huge file) or it cannot be read.
pub fn source_bytes(cwd: &Path, source: &Path) -> Option<Vec<u8>> {
    read_source(cwd, source).ok()?.ok()
}

/// The source's bytes, or why it is refused: a symbolic link (the file or a directory on
/// the way from `cwd`) could point at the course's solutions, a device or a FIFO could
/// block for ever, and a huge file could flood the compiler.
fn read_source(cwd: &Path, source: &Path) -> Result<Result<Vec<u8>, Refusal>> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = cwd.join(source);
    if link_target(cwd, source)?.is_some() {
        return Ok(Err(Refusal::Symlink(source.to_path_buf())));
    }
    // O_NONBLOCK: opening a FIFO must not wait for a writer.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&path)
        .with_context(|| format!("cannot read {}", source.display()))?;
    let meta = file
        .metadata()
        .with_context(|| format!("cannot read {}", source.display()))?;
    if !meta.is_file() {
        return Ok(Err(Refusal::NotAFile(source.to_path_buf())));
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Ok(Err(Refusal::TooLarge(source.to_path_buf())));
    }
    let mut code = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut code)
        .with_context(|| format!("cannot read {}", source.display()))?;
    if code.len() as u64 > MAX_SOURCE_BYTES {
        return Ok(Err(Refusal::TooLarge(source.to_path_buf())));
    }
    Ok(Ok(code))
}

/// Where `base/path` really leads when that is not `base/path` itself: it is a symbolic
/// link (to what it says) or is reached through one (to where it resolves), so it could be
/// anything, the course's solutions too. `None` for a path that is where it says, or is not
/// there.
pub fn link_target(base: &Path, path: &Path) -> Result<Option<PathBuf>> {
    let full = base.join(path);
    if std::fs::symlink_metadata(&full).is_ok_and(|meta| meta.is_symlink()) {
        let target =
            std::fs::read_link(&full).with_context(|| format!("cannot read {}", full.display()))?;
        return Ok(Some(target));
    }
    let real_base =
        std::fs::canonicalize(base).with_context(|| format!("cannot read {}", base.display()))?;
    Ok(std::fs::canonicalize(&full)
        .ok()
        .filter(|real| *real != real_base.join(path)))
}

/// The source's name inside the compile's working directory: the name the student knows
/// (`exercises/check_win.c`), or only its file name if that name climbs out.
fn name_in_sandbox(source: &Path) -> PathBuf {
    if source
        .components()
        .all(|part| matches!(part, Component::Normal(_)))
    {
        source.to_path_buf()
    } else {
        PathBuf::from(source.file_name().unwrap_or(source.as_os_str()))
    }
}

/// Why clings stopped the compiler, if it did.
fn stopped_compiler(stop: Option<Stop>, termination: Termination) -> Option<Localized> {
    let seconds = COMPILE_LIMITS.wall_time.as_secs();
    let (en, zh) = match (stop, termination) {
        (Some(Stop::WallTime | Stop::CpuTime), _) => (
            format!(
                "clings stopped the compiler after {seconds} s: does an #include name a device \
                 or a file that never ends?"
            ),
            format!("clings 在 {seconds} 秒后停止了编译器：是否 #include 了设备或无尽的文件？"),
        ),
        (Some(Stop::OutputLimit), _) => (
            format!(
                "clings stopped the compiler: it printed more than {} KiB of diagnostics \
                 (fix the first errors above)",
                COMPILE_LIMITS.output_bytes / 1024
            ),
            format!(
                "clings 停止了编译器：它输出了超过 {} KiB 的诊断信息（先修正上面的前几个错误）",
                COMPILE_LIMITS.output_bytes / 1024
            ),
        ),
        (Some(Stop::Memory), _) => (
            format!(
                "clings stopped the compiler: it used more than {} MiB of memory",
                COMPILE_LIMITS.memory.bytes >> 20
            ),
            format!(
                "clings 停止了编译器：它使用了超过 {} MiB 的内存",
                COMPILE_LIMITS.memory.bytes >> 20
            ),
        ),
        (None, Termination::Signaled(signal)) => (
            format!("the compiler was killed by signal {signal}"),
            format!("编译器被信号 {signal} 终止"),
        ),
        // The compiler is in no conversation.
        (Some(Stop::GameOver), _) | (None, Termination::Exited(_)) => return None,
    };
    Some(Localized::new(en, zh))
}

/// The compiler speaks the user's language where its translations are installed.
fn locale_env() -> Vec<(String, String)> {
    ["LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"]
        .into_iter()
        .filter_map(|key| Some((key.to_string(), std::env::var(key).ok()?)))
        .collect()
}

/// `name` as given when it holds a slash, else the first match on `PATH`; with every
/// symbolic link resolved (`cc` goes through `/etc/alternatives`, not in the sandbox).
fn find_executable(name: &str) -> Option<PathBuf> {
    let found = match name.contains('/') {
        true => PathBuf::from(name),
        false => find_on_path(name)?,
    };
    std::fs::canonicalize(found).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_rules_give_every_prerequisite() {
        let rule =
            ".clings-program: exercises/a\\ b.c /usr/include/stdio.h \\\n /usr/include/x.h\n";
        assert_eq!(
            parse_make_rule(rule),
            [
                "exercises/a b.c",
                "/usr/include/stdio.h",
                "/usr/include/x.h"
            ]
        );
    }

    #[test]
    fn a_changed_or_unknown_header_means_a_rebuild() {
        let header = ["/usr/include/stdio.h", "/usr/include/stdlib.h"]
            .into_iter()
            .find(|path| Path::new(path).is_file())
            .expect("the C library's headers");
        let source = Path::new("exercises/check_win.c");
        let recorded = record_dependencies(
            &format!(".clings-program: exercises/check_win.c {header}\n"),
            source,
        );
        assert_eq!(
            recorded.lines().count(),
            1,
            "the source itself is not recorded"
        );
        assert!(
            crate::compile::cache::dependencies_unchanged(&recorded),
            "{recorded}"
        );
        // The same header with other contents than when the build was made.
        let (_, path) = recorded.trim_end().split_once(' ').unwrap();
        let changed = format!("{} {path}\n", digest::of(&[b"another version"]));
        assert!(!crate::compile::cache::dependencies_unchanged(&changed));
        // A file outside the system's directories is never trusted to be unchanged.
        let dir = tempfile::tempdir().unwrap();
        let local = dir.path().join("local.h");
        std::fs::write(&local, "int x;\n").unwrap();
        let outside =
            record_dependencies(&format!(".clings-program: {}\n", local.display()), source);
        assert!(outside.starts_with("- "), "{outside}");
        assert!(!crate::compile::cache::dependencies_unchanged(&outside));
    }

    #[test]
    fn a_source_name_that_climbs_out_keeps_only_its_file_name() {
        assert_eq!(
            name_in_sandbox(Path::new("exercises/check_win.c")),
            Path::new("exercises/check_win.c")
        );
        assert_eq!(name_in_sandbox(Path::new("../x/y.c")), Path::new("y.c"));
        assert_eq!(name_in_sandbox(Path::new("/etc/z.c")), Path::new("z.c"));
    }

    #[test]
    fn a_stop_reason_is_a_line_of_its_own() {
        assert_eq!(with_last_line(String::new(), "stopped"), "stopped\n");
        assert_eq!(
            with_last_line("a.c: error".into(), "stopped"),
            "a.c: error\nstopped\n"
        );
        assert_eq!(
            with_last_line("a.c: error\n".into(), "stopped"),
            "a.c: error\nstopped\n"
        );
    }

    /// The toolchain of gcc on PATH, without sanitizers.
    fn gcc() -> Toolchain {
        let defaults = Defaults {
            compiler: Some("gcc".into()),
            ..Defaults::default()
        };
        Toolchain::detect(&defaults, Lang::En).unwrap()
    }

    /// `gcc` through a script in `dir` that fails every compile whose arguments (and a
    /// blank after them) match the shell pattern `refused`: a compiler without `missing`.
    fn gcc_refusing(dir: &Path, refused: &str, missing: &str, gcc: Toolchain) -> Toolchain {
        let script = dir.join(format!("cc-without-{missing}"));
        std::fs::write(
            &script,
            format!("#!/bin/sh\ncase \"$* \" in {refused}) exit 1;; esac\nexec gcc \"$@\"\n"),
        )
        .unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        Toolchain {
            command: vec![script.to_string_lossy().into_owned()],
            compiler: script,
            identity: format!("a compiler without {missing}"),
            ..gcc
        }
    }

    /// `toolchain` with `sanitizer`, its probes kept in `cache`.
    fn sanitized(toolchain: &Toolchain, sanitizer: &str, cache: &Path) -> Toolchain {
        toolchain
            .with_sanitizers(&[sanitizer.into()], cache)
            .unwrap()
    }

    fn has_flag(toolchain: &Toolchain, flag: &str) -> bool {
        toolchain.flags().iter().any(|f| f == flag)
    }

    #[test]
    fn the_ubsan_runtime_is_linked_in_where_the_compiler_can() {
        let cache = tempfile::tempdir().unwrap();
        let gcc = gcc();
        let ubsan = sanitized(&gcc, "undefined", cache.path());
        assert!(has_flag(&ubsan, "-static-libubsan"), "{:?}", ubsan.flags());
        assert!(has_flag(&ubsan, "-static-libgcc"), "{:?}", ubsan.flags());
        // Asked again, the record answers the same.
        let again = sanitized(&gcc, "undefined", cache.path());
        assert_eq!(again.flags(), ubsan.flags());
        let asan = sanitized(&gcc, "address", cache.path());
        assert!(!has_flag(&asan, "-static-libubsan") && has_flag(&asan, "-fsanitize=address"));
        assert!(!has_flag(&asan, "-static-libgcc"), "{:?}", asan.flags());
        // A compiler that cannot link it in keeps the sanitizer with the shared runtime.
        let refusing = gcc_refusing(cache.path(), "*-static-libubsan*", "libubsan.a", gcc);
        let shared = sanitized(&refusing, "undefined", cache.path());
        assert!(
            has_flag(&shared, "-fsanitize=undefined") && !has_flag(&shared, "-static-libubsan")
        );
        assert!(shared.warnings.is_empty(), "{:?}", shared.warnings);
        assert!(shared.linked_whole(cache.path()).is_none());
    }

    #[test]
    fn a_toolchain_links_whole_where_the_compiler_can() {
        let cache = tempfile::tempdir().unwrap();
        let gcc = gcc();
        let ubsan = sanitized(&gcc, "undefined", cache.path());
        let whole = ubsan.linked_whole(cache.path()).expect("gcc links -static");
        assert!(has_flag(&whole, "-static") && !has_flag(&whole, "-static-libubsan"));
        assert!(
            has_flag(&whole, "-fsanitize=undefined"),
            "{:?}",
            whole.flags()
        );
        assert!(!has_flag(&ubsan, "-static"), "{:?}", ubsan.flags());
        // AddressSanitizer's runtime cannot be linked in.
        let asan = sanitized(&gcc, "address", cache.path());
        assert!(asan.linked_whole(cache.path()).is_none());
        // A compiler without a static C library keeps the runtime linked in, the rest shared.
        let without = gcc_refusing(cache.path(), "*\" -static \"*", "libc.a", gcc)
            .with_sanitizers(&["undefined".into()], cache.path())
            .unwrap();
        assert!(
            has_flag(&without, "-static-libubsan"),
            "{:?}",
            without.flags()
        );
        assert!(without.linked_whole(cache.path()).is_none());
    }

    #[test]
    fn sanitizers_decide_the_runtime_options_and_the_memory_limit() {
        let cache = tempfile::tempdir().unwrap();
        let defaults = Defaults {
            sanitizers: Vec::new(),
            ..Defaults::default()
        };
        let plain = Toolchain::detect(&defaults, Lang::En).unwrap();
        assert!(!plain.uses_sanitizers());
        assert_eq!(plain.memory_enforcement(), MemoryEnforcement::AddressSpace);
        // Nothing in the program's environment but what the course asked for.
        assert!(plain.runtime_env().is_empty());
        assert!(
            !plain
                .flags()
                .iter()
                .any(|flag| flag.starts_with("-fsanitize"))
        );
        // Checks left out of no sanitizer are no flag; left out of some, the last flag.
        let left_out = ["object-size".to_string()];
        assert_eq!(plain.for_exercise(&[], &left_out).flags(), plain.flags());
        let asan = plain
            .with_sanitizers(&["address".to_string()], cache.path())
            .unwrap();
        assert_eq!(
            asan.for_exercise(&["-O2".into()], &left_out).flags().last(),
            Some(&"-fno-sanitize=object-size".to_string())
        );
        assert!(asan.uses_sanitizers());
        assert!(!asan.flags().contains(&"-fsanitize=undefined".to_string()));
        // Its runs' memory is limited past what it maps at start: AddressSanitizer's
        // shadow, terabytes of it.
        let MemoryEnforcement::Sanitizer(start) = asan.memory_enforcement() else {
            panic!("{:?}", asan.memory_enforcement());
        };
        assert!(start.data_bytes > 1 << 40, "{start:?}");
        assert!(start.address_space_bytes > start.data_bytes, "{start:?}");
        assert!(asan.flags().contains(&"-fsanitize=address".to_string()));
        assert!(
            asan.flags()
                .contains(&"-fno-sanitize-recover=all".to_string())
        );
        let env = asan.runtime_env();
        let options: Vec<&str> = env.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(options, ["UBSAN_OPTIONS", "ASAN_OPTIONS"]);
        assert!(
            asan.runtime_env()
                .iter()
                .all(|(_, value)| value.contains(&format!("exitcode={SANITIZER_EXIT_CODE}")))
        );
    }

    /// The record keeps what the probe found; a record of AddressSanitizer without what
    /// its builds map at start (written by an older clings) is probed again.
    #[test]
    fn a_probe_record_reads_back_whole_or_not_at_all() {
        let probed = Probed {
            sanitizers: vec!["address".into(), "undefined".into()],
            static_runtime: false,
            footprint: Some(StartFootprint {
                data_bytes: 15 << 40,
                address_space_bytes: 20 << 40,
            }),
        };
        assert_eq!(Probed::parse(&probed.record()), Some(probed));
        let ubsan = Probed {
            sanitizers: vec!["undefined".into()],
            static_runtime: true,
            footprint: None,
        };
        assert_eq!(Probed::parse(&ubsan.record()), Some(ubsan));
        assert_eq!(Probed::parse("address\nundefined"), None);
        assert_eq!(Probed::parse("undefined\n+footprint 1 x"), None);
        let status = "Name:\tprogram\nVmSize:\t21474873640 kB\nVmData:\t15032410620 kB\n";
        assert_eq!(
            parse_footprint(status),
            Some(StartFootprint {
                data_bytes: 15032410620 * 1024,
                address_space_bytes: 21474873640 * 1024,
            })
        );
        assert_eq!(parse_footprint("VmSize:\t1 kB\n"), None);
    }

    #[test]
    fn a_source_of_the_size_limit_is_read_whole_and_one_byte_more_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let at_limit = Path::new("at_limit.c");
        std::fs::write(
            dir.path().join(at_limit),
            vec![b' '; MAX_SOURCE_BYTES as usize],
        )
        .unwrap();
        let code = read_source(dir.path(), at_limit).unwrap().ok().unwrap();
        assert_eq!(code.len() as u64, MAX_SOURCE_BYTES);
        let over = Path::new("over.c");
        std::fs::write(
            dir.path().join(over),
            vec![b' '; MAX_SOURCE_BYTES as usize + 1],
        )
        .unwrap();
        assert!(matches!(
            read_source(dir.path(), over).unwrap(),
            Err(Refusal::TooLarge(_))
        ));
    }
}

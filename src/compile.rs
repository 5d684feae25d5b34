//! The C toolchain: which compiler, which flags, whether sanitizers work, and a build
//! cache keyed by everything that can change the program, so an unchanged file is never
//! compiled twice.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

use crate::course::Defaults;
use crate::i18n::Localized;

/// The exit status a sanitizer report ends the program with (set through
/// `UBSAN_OPTIONS`/`ASAN_OPTIONS`), so the judge can tell a report from `exit(1)`.
pub const SANITIZER_EXIT_CODE: i32 = 86;

const PROGRAM: &str = "program";
const DIAGNOSTICS: &str = "diagnostics.txt";

pub struct Toolchain {
    /// The compiler command and any arguments that came with it in `$CC`.
    command: Vec<String>,
    /// What `--version` printed: a different compiler means a different cache key.
    identity: String,
    flags: Vec<String>,
    /// The sanitizers that this compiler accepted, in the course's order.
    sanitizers: Vec<String>,
    /// Things the student should know about the toolchain, e.g. a sanitizer fallback.
    pub warnings: Vec<String>,
}

/// The result of compiling one source file.
pub struct Build {
    /// `None` when the compiler failed.
    pub program: Option<PathBuf>,
    /// Everything the compiler printed, with its colour codes.
    pub diagnostics: String,
    pub from_cache: bool,
}

impl Toolchain {
    /// Picks the compiler (`$CC`, then the course's, then `cc`), asks its identity, and
    /// checks once per compiler which of the course's sanitizers it supports.
    pub fn detect(defaults: &Defaults, cache_dir: &Path) -> Result<Toolchain> {
        let (spec, origin) = match std::env::var("CC") {
            Ok(cc) if !cc.trim().is_empty() => (cc, "$CC"),
            _ => match &defaults.compiler {
                Some(cc) => (cc.clone(), "the compiler key of info.toml"),
                None => ("cc".to_string(), "the default"),
            },
        };
        let command: Vec<String> = spec.split_whitespace().map(String::from).collect();
        let identity = compiler_identity(&command, origin)?;
        let mut toolchain = Toolchain {
            command,
            identity,
            flags: defaults.flags.clone(),
            sanitizers: Vec::new(),
            warnings: Vec::new(),
        };
        toolchain.sanitizers = toolchain.supported_sanitizers(&defaults.sanitizers, cache_dir)?;
        let missing: Vec<&str> = defaults
            .sanitizers
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

    pub fn uses_sanitizers(&self) -> bool {
        !self.sanitizers.is_empty()
    }

    /// Whether programs are built with the sanitizer `name` (as given to `-fsanitize=`).
    pub fn uses_sanitizer(&self, name: &str) -> bool {
        self.sanitizers.iter().any(|known| known == name)
    }

    /// Every flag a compile gets, without the source and output paths.
    pub fn flags(&self) -> Vec<String> {
        let mut flags = self.flags.clone();
        flags.extend(sanitizer_flags(&self.sanitizers));
        flags
    }

    /// Environment for running a program built here: sanitizer reports end the program
    /// with [`SANITIZER_EXIT_CODE`] and print a stack trace.
    pub fn runtime_env(&self) -> Vec<(String, String)> {
        if !self.uses_sanitizers() {
            return Vec::new();
        }
        let common = format!("exitcode={SANITIZER_EXIT_CODE}:print_stacktrace=1");
        vec![
            ("UBSAN_OPTIONS".into(), format!("{common}:halt_on_error=1")),
            ("ASAN_OPTIONS".into(), format!("{common}:detect_leaks=0")),
        ]
    }

    /// Compiles `source` (as named relative to `cwd`, so diagnostics show that name),
    /// reusing a cached build when nothing that matters has changed.
    pub fn compile(&self, source: &Path, cwd: &Path, cache_dir: &Path) -> Result<Build> {
        let code = std::fs::read(cwd.join(source))
            .with_context(|| format!("cannot read {}", source.display()))?;
        let flags = self.flags();
        let key = cache_key(&[
            self.identity.as_bytes(),
            self.command.join(" ").as_bytes(),
            flags.join("\0").as_bytes(),
            source.to_string_lossy().as_bytes(),
            &code,
        ]);
        let entry = cache_dir.join(&key);
        if let Some(build) = read_cached(&entry)? {
            return Ok(build);
        }

        std::fs::create_dir_all(cache_dir)
            .with_context(|| format!("cannot create the build cache {}", cache_dir.display()))?;
        let staging = tempfile::Builder::new()
            .prefix(".build-")
            .tempdir_in(cache_dir)
            .with_context(|| {
                format!("cannot create a build directory in {}", cache_dir.display())
            })?;
        let output = Command::new(&self.command[0])
            .args(&self.command[1..])
            .args(&flags)
            .arg("-fdiagnostics-color=always")
            .arg(source)
            .arg("-o")
            .arg(staging.path().join(PROGRAM))
            .arg("-lm")
            .current_dir(cwd)
            .output()
            .with_context(|| format!("cannot run the compiler {}", self.command[0]))?;
        let mut diagnostics = String::from_utf8_lossy(&output.stdout).into_owned();
        diagnostics.push_str(&String::from_utf8_lossy(&output.stderr));
        if !output.status.success() {
            // A failed link can leave a partial program behind; it must not look like a build.
            let _ = std::fs::remove_file(staging.path().join(PROGRAM));
        }
        std::fs::write(staging.path().join(DIAGNOSTICS), &diagnostics)
            .context("cannot write the compiler's diagnostics to the build cache")?;
        // Publishing by rename keeps a half-written build invisible to other clings runs;
        // if another run published the same key first, its build is just as good.
        let staged = staging.keep();
        if std::fs::rename(&staged, &entry).is_err() {
            let _ = std::fs::remove_dir_all(&staged);
        }
        let mut build = read_cached(&entry)?
            .with_context(|| format!("the build cache entry {} vanished", entry.display()))?;
        build.from_cache = false;
        Ok(build)
    }

    fn supported_sanitizers(&self, wanted: &[String], cache_dir: &Path) -> Result<Vec<String>> {
        if wanted.is_empty() {
            return Ok(Vec::new());
        }
        let probe_file = cache_dir.join(format!(
            "probe-{}",
            cache_key(&[self.identity.as_bytes(), wanted.join(",").as_bytes()])
        ));
        if let Ok(known) = std::fs::read_to_string(&probe_file) {
            return Ok(known.lines().map(String::from).collect());
        }
        let scratch =
            tempfile::tempdir().context("cannot create a directory to probe the compiler")?;
        let probe_source = scratch.path().join("probe.c");
        std::fs::write(&probe_source, "int main(void) { return 0; }\n")
            .context("cannot write the compiler probe")?;
        let accepts = |names: &[String]| {
            Command::new(&self.command[0])
                .args(&self.command[1..])
                .args(sanitizer_flags(names))
                .arg(&probe_source)
                .arg("-o")
                .arg(scratch.path().join("probe"))
                .output()
                .is_ok_and(|output| output.status.success())
        };
        let supported: Vec<String> = if accepts(wanted) {
            wanted.to_vec()
        } else {
            wanted
                .iter()
                .filter(|name| accepts(std::slice::from_ref(name)))
                .cloned()
                .collect()
        };
        // The probe result is only an optimisation: failing to store it is not an error.
        if std::fs::create_dir_all(cache_dir).is_ok() {
            let _ = std::fs::write(&probe_file, supported.join("\n"));
        }
        Ok(supported)
    }
}

fn sanitizer_flags(names: &[String]) -> Vec<String> {
    if names.is_empty() {
        return Vec::new();
    }
    let mut flags: Vec<String> = names
        .iter()
        .map(|name| format!("-fsanitize={name}"))
        .collect();
    // UBSan prints and carries on by default; a report must stop the program and fail the case.
    flags.push("-fno-sanitize-recover=all".into());
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

fn read_cached(entry: &Path) -> Result<Option<Build>> {
    let diagnostics = match std::fs::read_to_string(entry.join(DIAGNOSTICS)) {
        Ok(text) => text,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
        Err(err) => {
            return Err(err)
                .with_context(|| format!("cannot read the build cache {}", entry.display()));
        }
    };
    let program = entry.join(PROGRAM);
    Ok(Some(Build {
        program: program.is_file().then_some(program),
        diagnostics,
        from_cache: true,
    }))
}

/// A hex digest of the parts, each length-prefixed so that no two part lists collide.
fn cache_key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize()[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

//! Looking for processes that are still alive, in /proc. A zombie does not count: it has
//! ended and only waits for its parent (often init, which may take its time) to reap it.

use std::fs;

/// Whether a live process belongs to process group `pgid`.
pub fn group_has_live_process(pgid: i32) -> bool {
    any_live(|pid| {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (state, fields) = stat_fields(&stat)?;
        // After the state: ppid, then pgrp.
        let pgrp: i32 = fields.get(1)?.parse().ok()?;
        Some(pgrp == pgid && is_live(state))
    })
}

/// The processes, zombies included, whose parent is `ppid`.
pub fn children_of(ppid: i32) -> Vec<i32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| stat_fields(&stat)?.1.first()?.parse::<i32>().ok())
                == Some(ppid)
        })
        .collect()
}

/// The memory the processes below `ancestor` (its children, theirs, and so on) have of
/// their own: resident pages that are not a file's (`statm`'s resident less shared), what
/// a cgroup would charge them for their heaps and stacks; the C library's pages, which all
/// share, are not counted again for each. Read through each task's `children` file, which
/// costs as many reads as the run has processes, not as the machine has.
pub fn memory_below(ancestor: i32) -> u64 {
    let page = nix::unistd::sysconf(nix::unistd::SysconfVar::PAGE_SIZE)
        .ok()
        .flatten()
        .unwrap_or(4096) as u64;
    let mut total = 0;
    let mut pending = vec![ancestor];
    let mut seen = 0usize;
    while let Some(pid) = pending.pop() {
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.filter_map(Result::ok) {
            let children = fs::read_to_string(task.path().join("children")).unwrap_or_default();
            pending.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<i32>().ok()),
            );
        }
        if pid != ancestor {
            total += own_pages(pid) * page;
        }
        // A run holds at most a few dozen processes; a cycle cannot happen, a pid reused
        // while we look could in theory make one.
        seen += 1;
        if seen > 4096 {
            break;
        }
    }
    total
}

/// Resident pages of `pid` that are not a file's.
fn own_pages(pid: i32) -> u64 {
    let Ok(statm) = fs::read_to_string(format!("/proc/{pid}/statm")) else {
        return 0;
    };
    let mut fields = statm.split_whitespace().skip(1);
    let (Some(resident), Some(shared)) = (fields.next(), fields.next()) else {
        return 0;
    };
    let number = |field: &str| field.parse::<u64>().unwrap_or(0);
    number(resident).saturating_sub(number(shared))
}

/// Whether a live process has `uid` as its real, effective or saved user id.
pub fn user_has_live_process(uid: u32) -> bool {
    any_live(|pid| {
        let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .map(str::trim)
        };
        let state = field("State:")?.chars().next()?;
        let uids = field("Uid:")?;
        let owned = uids
            .split_whitespace()
            .take(3)
            .any(|id| id.parse() == Ok(uid));
        Some(owned && is_live(state))
    })
}

/// How many tasks (processes and their threads, which RLIMIT_NPROC counts alike, zombies
/// included until reaped) of user `uid` there are, leaving out process `except`'s.
pub fn tasks_of_user(uid: u32, except: i32) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name();
            let name = name.to_str()?;
            let owned = name.parse::<i32>().ok()? != except && entry.metadata().ok()?.uid() == uid;
            owned.then(|| threads_of(name)).flatten()
        })
        .sum()
}

/// The threads of process `pid` ("self" for the calling one), `None` once it is gone.
pub fn threads_of(pid: &str) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the state: ppid, pgrp, session, tty_nr, tpgid, flags, four fault counts,
    // four CPU times, priority, nice, then num_threads.
    stat_fields(&stat)?.1.get(16)?.parse().ok()
}

fn any_live(mut matches: impl FnMut(&str) -> Option<bool>) -> bool {
    let Ok(entries) = fs::read_dir("/proc") else {
        return false;
    };
    entries.filter_map(Result::ok).any(|entry| {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // A process that ended while we looked has no files left: it is not alive.
        name.bytes().all(|byte| byte.is_ascii_digit()) && matches(&name) == Some(true)
    })
}

/// The state letter and the fields after it; the command name in parentheses may hold
/// spaces and parentheses itself, so the last ") " ends it.
fn stat_fields(stat: &str) -> Option<(char, Vec<&str>)> {
    let (_, rest) = stat.rsplit_once(") ")?;
    let mut fields = rest.split(' ');
    let state = fields.next()?.chars().next()?;
    Some((state, fields.collect()))
}

fn is_live(state: char) -> bool {
    !matches!(state, 'Z' | 'X' | 'x')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_survive_a_strange_command_name() {
        let stat = "42 (a) b) c) S 1 42 42 0 -1";
        let (state, fields) = stat_fields(stat).unwrap();
        assert_eq!(state, 'S');
        assert_eq!(&fields[..2], ["1", "42"]);
    }

    #[test]
    fn this_process_is_found_alive() {
        let me = nix::unistd::getpgrp().as_raw();
        assert!(group_has_live_process(me));
        assert!(user_has_live_process(nix::unistd::getuid().as_raw()));
        assert!(!group_has_live_process(i32::MAX));
        // No process runs as this user (clings' run users start at 1 800 000 000).
        assert!(!user_has_live_process(4_000_000_000));
    }

    #[test]
    fn an_ended_child_is_a_child_but_not_alive() {
        use std::os::unix::process::CommandExt;
        // A group of its own, which holds only the child.
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert!(group_has_live_process(pid));
        let children = children_of(std::process::id() as i32);
        assert!(children.contains(&pid), "{children:?}");
        assert!(!children.contains(&(std::process::id() as i32)));
        child.kill().unwrap();
        // Ended but not reaped: a zombie, still a child, no longer alive.
        nix::sys::wait::waitid(
            nix::sys::wait::Id::Pid(nix::unistd::Pid::from_raw(pid)),
            nix::sys::wait::WaitPidFlag::WEXITED | nix::sys::wait::WaitPidFlag::WNOWAIT,
        )
        .unwrap();
        assert!(!group_has_live_process(pid));
        assert!(children_of(std::process::id() as i32).contains(&pid));
        child.wait().unwrap();
        assert!(!children_of(std::process::id() as i32).contains(&pid));
    }
}

//! A seccomp filter for every run. bubblewrap's namespaces keep a program away from the
//! machine's files, network and processes, but the kernel still offers it ways around or
//! through them: a user namespace of its own (in which it may mount a tmpfs and fill host
//! memory, or reach code that only root used to reach), a keyring that outlives the run and
//! is there for the next case of the same user, ptrace and /proc-style reads of the helper
//! that supervises it, and kernel interfaces (bpf, io_uring, perf events, userfaultfd, …)
//! that a C exercise never needs and that are where kernel exploits usually start.
//!
//! The filter is classic BPF, written out here as a static array: installing it in the
//! forked child, just before exec, is two `prctl`/`seccomp` calls on memory that already
//! exists, with no allocation (only async-signal-safe calls are allowed there). It is
//! inherited across fork and exec, so the program, its children and the compiler's
//! subprocesses all run under it, and nothing can remove it. Denied calls fail with EPERM,
//! as they would for an ordinary unprivileged process, rather than killing the program: a
//! curious program sees an error, not a crash that looks like its own bug.
//!
//! (`seccompiler` from rust-vmm was considered: it would bring serde and serde_json and a
//! rule compiler for a filter of fifty comparisons, and its programs are built at run time.
//! A fixed denylist is easier to check by reading it.)
//!
//! Only x86_64 and little-endian aarch64 are supported, the two architectures whose system
//! call numbers are known here; elsewhere (and on macOS) [`Filter::new`] returns `None` and
//! runs go without the filter.

// The program is built only where it is supported; its builder (and the tests of it) are
// compiled everywhere.
#![cfg_attr(
    not(all(
        target_os = "linux",
        any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_endian = "little")
        )
    )),
    allow(dead_code)
)]

use std::io;

/// `struct sock_filter`: one classic BPF instruction.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Insn {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

// Instruction classes and modes of classic BPF (<linux/filter.h>, <linux/bpf_common.h>).
const LD_W_ABS: u16 = 0x20; // BPF_LD (0) | BPF_W (0) | BPF_ABS
const AND_K: u16 = 0x04 | 0x50; // BPF_ALU | BPF_AND | BPF_K
const JEQ_K: u16 = 0x05 | 0x10; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K: u16 = 0x05 | 0x30; // BPF_JMP | BPF_JGE | BPF_K
const JSET_K: u16 = 0x05 | 0x40; // BPF_JMP | BPF_JSET | BPF_K
const RET_K: u16 = 0x06; // BPF_RET | BPF_K

// Offsets in `struct seccomp_data`, what the filter reads.
const NR: u32 = 0;
const ARCH: u32 = 4;
/// The low 32 bits of argument `index` (both supported architectures are little-endian).
const fn arg_low(index: u32) -> u32 {
    16 + 8 * index
}

// Results (<linux/seccomp.h>), spelled out so that this file compiles on every target.
const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;
const EPERM: u32 = 1;
const ENOSYS: u32 = 38;

/// Namespace flags in `clone`'s first argument. CLONE_NEWTIME (0x80) is not here: in
/// `clone` that bit belongs to the exit signal, and the kernel takes CLONE_NEWTIME only
/// from `clone3` and `unshare`, which are refused whole.
const CLONE_NEW_NAMESPACE: u32 = 0x0002_0000 // CLONE_NEWNS
    | 0x0200_0000 // CLONE_NEWCGROUP
    | 0x0400_0000 // CLONE_NEWUTS
    | 0x0800_0000 // CLONE_NEWIPC
    | 0x1000_0000 // CLONE_NEWUSER
    | 0x2000_0000 // CLONE_NEWPID
    | 0x4000_0000; // CLONE_NEWNET

/// `fcntl` commands that put a lock, a lease or a directory watch on a file (<fcntl.h>):
/// F_GETLK, F_SETLK, F_SETLKW, the open file description locks F_OFD_GETLK, F_OFD_SETLK,
/// F_OFD_SETLKW, and F_SETLEASE, F_GETLEASE, F_NOTIFY. A lock is a kernel object on the
/// file, not on the run: two runs side by side that can both open a file (anything in the
/// system's directories) signal to each other by taking and testing it.
const FCNTL_LOCKS: [u32; 9] = [5, 6, 7, 36, 37, 38, 1024, 1025, 1026];

/// `futex` operations that wake a waiter (FUTEX_WAKE, FUTEX_REQUEUE, FUTEX_CMP_REQUEUE,
/// FUTEX_WAKE_OP, FUTEX_UNLOCK_PI, FUTEX_WAKE_BITSET, FUTEX_CMP_REQUEUE_PI), refused unless
/// FUTEX_PRIVATE_FLAG says the futex is the process's own. A shared futex on a page of a
/// file is keyed by the file (`/usr`'s libc is mapped by every process), so a shared wake in
/// one sandbox reaches a waiter in another. glibc waits on shared futexes (`pthread_join`)
/// but wakes them only for process-shared objects, which no exercise uses.
const FUTEX_SHARED_WAKES: [u32; 7] = [1, 3, 4, 5, 7, 10, 12];
const FUTEX_PRIVATE_FLAG: u32 = 128;
/// FUTEX_CMD_MASK: the operation without its flags.
const FUTEX_COMMAND: u32 = 127;

const AF_UNIX: u32 = 1;

/// A call decided by one of its arguments, of which the filter reads the low half.
#[derive(Clone, Copy)]
struct ArgRule {
    nr: u32,
    arg: u32,
    /// Bits that, any of them set, allow the call whatever the test says; 0 for none.
    allowed_if_set: u32,
    /// The bits the test looks at; `u32::MAX` for all.
    mask: u32,
    test: Refused,
}

/// When an [`ArgRule`]'s call is refused.
#[derive(Clone, Copy)]
enum Refused {
    /// When any of these bits is set.
    AnyBit(u32),
    /// When the value is one of these.
    OneOf(&'static [u32]),
    /// Unless the value is this one.
    AllBut(u32),
}

impl ArgRule {
    /// `clone` with a namespace flag in its first argument.
    const fn clone(nr: u32) -> ArgRule {
        ArgRule {
            nr,
            arg: 0,
            allowed_if_set: 0,
            mask: u32::MAX,
            test: Refused::AnyBit(CLONE_NEW_NAMESPACE),
        }
    }

    /// `fcntl`'s lock, lease and notification commands (its second argument).
    const fn fcntl(nr: u32) -> ArgRule {
        ArgRule {
            nr,
            arg: 1,
            allowed_if_set: 0,
            mask: u32::MAX,
            test: Refused::OneOf(&FCNTL_LOCKS),
        }
    }

    /// `futex`'s wakes of shared futexes (its second argument).
    const fn futex(nr: u32) -> ArgRule {
        ArgRule {
            nr,
            arg: 1,
            allowed_if_set: FUTEX_PRIVATE_FLAG,
            mask: FUTEX_COMMAND,
            test: Refused::OneOf(&FUTEX_SHARED_WAKES),
        }
    }

    /// `socket` or `socketpair` of any family but AF_UNIX (the first argument): the run's
    /// network namespace lasts as long as its warm sandbox, and its loopback's counters, or
    /// a socket family no namespace holds (AF_VSOCK), would outlive the run or cross it.
    const fn local_sockets_only(nr: u32) -> ArgRule {
        ArgRule {
            nr,
            arg: 0,
            allowed_if_set: 0,
            mask: u32::MAX,
            test: Refused::AllBut(AF_UNIX),
        }
    }

    /// Instructions in this rule's block of the program.
    const fn len(&self) -> usize {
        1 + (self.allowed_if_set != 0) as usize
            + (self.mask != u32::MAX) as usize
            + match self.test {
                Refused::AnyBit(_) | Refused::AllBut(_) => 1,
                Refused::OneOf(values) => values.len(),
            }
    }
}

/// What the filter needs to know of one architecture.
struct Abi {
    /// `AUDIT_ARCH_*`: system calls of any other ABI the kernel offers the process (i386
    /// through `int 0x80` on x86_64, arm32 on aarch64) have other numbers, which this
    /// filter cannot read; they kill the process.
    audit_arch: u32,
    /// x32 calls come with x86_64's arch and this bit in their number.
    x32_bit: Option<u32>,
    clone3: u32,
    /// Calls decided by an argument.
    rules: &'static [ArgRule],
    denied: &'static [u32],
}

impl Abi {
    /// Instructions in [`build`]'s program: four (five with x32) to find the call, one
    /// for each argument rule, the search of the denied calls, the rules' blocks and four
    /// results.
    const fn program_len(&self) -> usize {
        let mut blocks = 0;
        let mut index = 0;
        while index < self.rules.len() {
            blocks += self.rules[index].len();
            index += 1;
        }
        4 + self.x32_bit.is_some() as usize
            + self.rules.len()
            + search_len(self.denied.len())
            + blocks
            + 4
    }
}

/// Denied calls compared one by one at the end of the search.
const LEAF: usize = 8;

/// Instructions in [`emit_search`]'s code for `count` calls.
const fn search_len(count: usize) -> usize {
    if count <= LEAF {
        count + 1
    } else {
        1 + search_len(count / 2) + search_len(count - count / 2)
    }
}

/// The program, in this order (classic BPF jumps only forward):
///
/// ```text
///        ld  arch;  jeq AUDIT_ARCH, next, kill
///        ld  nr;   [jge X32_BIT, enosys]
///        jeq clone3, enosys
///        jeq <each rule's call>, <its block>
///        <binary search of the denied calls: eperm if found, else ret ALLOW>
/// block: ld args[n] (low half); [jset ALLOWED, allow]; [and MASK];
///        <jset BITS | jeq VALUE... | jeq ONLY>: eperm or allow
/// eperm: ret ERRNO(EPERM)
/// allow: ret ALLOW
/// enosys: ret ERRNO(ENOSYS)
/// kill: ret KILL_PROCESS
/// ```
///
/// `clone3` gets ENOSYS because its flags sit in a struct in memory, which a filter cannot
/// read; glibc (`pthread_create`, `posix_spawn`) then falls back to `clone`, whose flags
/// are an argument the filter can see.
///
/// A binary search rather than a list, because installing costs in proportion to the
/// instructions run: the kernel runs the filter on every system call number when it is
/// installed, to find the calls it always allows (those then skip the filter). Measured on
/// a 2-core VM: 105 µs per install with a list of the 45 calls, 70 µs with the search,
/// 28 µs for a filter of one instruction.
const fn build<const N: usize>(abi: &Abi) -> [Insn; N] {
    assert!(N == abi.program_len());
    let kill = N - 1;
    let enosys = N - 2;
    let allow = N - 3;
    let eperm = N - 4;

    let mut program = [stmt(RET_K, RET_ALLOW); N];
    let mut at = 0;
    program[at] = stmt(LD_W_ABS, ARCH);
    at += 1;
    program[at] = jump(JEQ_K, abi.audit_arch, at, at + 1, kill);
    at += 1;
    program[at] = stmt(LD_W_ABS, NR);
    at += 1;
    if let Some(bit) = abi.x32_bit {
        // Numbers at or above the x32 bit are x32 calls (or no call at all): a kernel
        // without x32 (most distributions) answers ENOSYS to them too.
        program[at] = jump(JGE_K, bit, at, enosys, at + 1);
        at += 1;
    }
    program[at] = jump(JEQ_K, abi.clone3, at, enosys, at + 1);
    at += 1;
    // The rules' blocks come after the search, one after another.
    let rule_jumps = at;
    at += abi.rules.len();
    let mut sorted = [0u32; N];
    let count = abi.denied.len();
    let mut index = 0;
    while index < count {
        // Insertion sort: the list is short, and written in the order that reads best.
        let mut place = index;
        while place > 0 && sorted[place - 1] > abi.denied[index] {
            sorted[place] = sorted[place - 1];
            place -= 1;
        }
        sorted[place] = abi.denied[index];
        assert!(
            place == 0 || sorted[place - 1] != abi.denied[index],
            "a call listed twice"
        );
        index += 1;
    }
    at = emit_search(&mut program, at, sorted.split_at(count).0, eperm);
    let mut rule = 0;
    while rule < abi.rules.len() {
        let jump_at = rule_jumps + rule;
        program[jump_at] = jump(JEQ_K, abi.rules[rule].nr, jump_at, at, jump_at + 1);
        at = emit_rule(&mut program, at, &abi.rules[rule], eperm, allow);
        rule += 1;
    }
    assert!(at == eperm);
    program[at] = stmt(RET_K, RET_ERRNO | EPERM);
    at += 1;
    program[at] = stmt(RET_K, RET_ALLOW);
    at += 1;
    assert!(at == enosys);
    program[at] = stmt(RET_K, RET_ERRNO | ENOSYS);
    at += 1;
    assert!(at == kill);
    program[at] = stmt(RET_K, RET_KILL_PROCESS);
    program
}

/// Writes at `at` the block of `rule`, which ends by jumping to `eperm` or `allow`.
/// Returns where the next instruction goes.
const fn emit_rule<const N: usize>(
    program: &mut [Insn; N],
    at: usize,
    rule: &ArgRule,
    eperm: usize,
    allow: usize,
) -> usize {
    let mut at = at;
    program[at] = stmt(LD_W_ABS, arg_low(rule.arg));
    at += 1;
    if rule.allowed_if_set != 0 {
        program[at] = jump(JSET_K, rule.allowed_if_set, at, allow, at + 1);
        at += 1;
    }
    if rule.mask != u32::MAX {
        program[at] = stmt(AND_K, rule.mask);
        at += 1;
    }
    match rule.test {
        Refused::AnyBit(bits) => {
            program[at] = jump(JSET_K, bits, at, eperm, allow);
            at += 1;
        }
        Refused::AllBut(only) => {
            program[at] = jump(JEQ_K, only, at, allow, eperm);
            at += 1;
        }
        Refused::OneOf(values) => {
            let mut index = 0;
            while index < values.len() {
                let next = if index + 1 == values.len() {
                    allow
                } else {
                    at + 1
                };
                program[at] = jump(JEQ_K, values[index], at, eperm, next);
                at += 1;
                index += 1;
            }
        }
    }
    at
}

/// Writes at `at` a search of `sorted` (ascending, unsigned): a number found jumps to
/// `eperm`, any other returns ALLOW. Returns where the next instruction goes.
const fn emit_search<const N: usize>(
    program: &mut [Insn; N],
    at: usize,
    sorted: &[u32],
    eperm: usize,
) -> usize {
    if sorted.len() <= LEAF {
        let mut at = at;
        let mut index = 0;
        while index < sorted.len() {
            program[at] = jump(JEQ_K, sorted[index], at, eperm, at + 1);
            at += 1;
            index += 1;
        }
        program[at] = stmt(RET_K, RET_ALLOW);
        return at + 1;
    }
    // Below the middle number, the lower half follows at once; from it on, the upper
    // half, which starts where the lower one ends.
    let (lower, upper) = sorted.split_at(sorted.len() / 2);
    let upper_start = emit_search(program, at + 1, lower, eperm);
    program[at] = jump(JGE_K, upper[0], at, upper_start, at + 1);
    emit_search(program, upper_start, upper, eperm)
}

const fn stmt(code: u16, k: u32) -> Insn {
    Insn {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

/// The conditional jump at index `at` to `taken` or `not_taken`, as BPF counts them:
/// instructions skipped, forward only, at most 255.
const fn jump(code: u16, k: u32, at: usize, taken: usize, not_taken: usize) -> Insn {
    const fn skip(at: usize, to: usize) -> u8 {
        assert!(to > at && to - at - 1 <= u8::MAX as usize);
        (to - at - 1) as u8
    }
    Insn {
        code,
        jt: skip(at, taken),
        jf: skip(at, not_taken),
        k,
    }
}

#[cfg(all(
    target_os = "linux",
    any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little")
    )
))]
mod native {
    use std::io;

    use super::{Abi, ArgRule, Insn, build};

    /// Calls a run never needs, each refused with EPERM. The numbers come from libc, so
    /// they are right for the architecture being built.
    pub(super) const DENIED: &[libc::c_long] = &[
        // Namespaces: no new user namespace (and with it, no capabilities to mount, to
        // build a private tmpfs in host memory, or to reach root-only kernel code).
        libc::SYS_unshare,
        libc::SYS_setns,
        // Mounts, old and new API, and chroot.
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        OPEN_TREE_ATTR,
        libc::SYS_mount_setattr,
        libc::SYS_chroot,
        // The kernel keyring: keys outlive the run and are there for the next run of the
        // same user.
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_keyctl,
        // System V IPC objects and POSIX message queues outlive the processes that made
        // them: the next case in the same warm sandbox would find them.
        libc::SYS_shmget,
        libc::SYS_shmat,
        libc::SYS_shmctl,
        libc::SYS_shmdt,
        libc::SYS_msgget,
        libc::SYS_msgsnd,
        libc::SYS_msgrcv,
        libc::SYS_msgctl,
        libc::SYS_semget,
        libc::SYS_semop,
        libc::SYS_semtimedop,
        libc::SYS_semctl,
        libc::SYS_mq_open,
        libc::SYS_mq_unlink,
        libc::SYS_mq_timedsend,
        libc::SYS_mq_timedreceive,
        libc::SYS_mq_notify,
        libc::SYS_mq_getsetattr,
        // Other processes, above all the helper that supervises the program. (ptrace also
        // serves LeakSanitizer, which clings turns off with detect_leaks=0.)
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_process_madvise,
        libc::SYS_kcmp,
        libc::SYS_pidfd_getfd,
        // Kernel interfaces where exploits start, which no exercise needs.
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        // Whole-machine administration: refused to an unprivileged process anyway, and
        // kept away from any privilege a misconfigured sandbox might leave.
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_quotactl_fd,
        libc::SYS_lookup_dcookie,
        // File handles open files without a path, past the permissions of the directories
        // on the way (the "Shocker" container escape).
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        // Extended attributes: metadata a run could leave on a directory or file that the
        // next run sees (and kernel memory charged to a cgroup that outlives the run).
        libc::SYS_setxattr,
        libc::SYS_lsetxattr,
        libc::SYS_fsetxattr,
        SETXATTRAT,
        libc::SYS_removexattr,
        libc::SYS_lremovexattr,
        libc::SYS_fremovexattr,
        REMOVEXATTRAT,
        // Kernel objects on shared files, which two runs side by side could both reach
        // through a file of the system's directories: whole-file locks (fcntl's locks are
        // refused by argument, below), and watches that see another run open or read it.
        libc::SYS_flock,
        #[cfg(target_arch = "x86_64")]
        libc::SYS_inotify_init,
        libc::SYS_inotify_init1,
        libc::SYS_inotify_add_watch,
        libc::SYS_fanotify_init,
        libc::SYS_fanotify_mark,
        // The page cache of shared files: a run that evicts, fetches or probes a file's
        // pages leaves a mark another run could time or test (fadvise's DONTNEED,
        // readahead, cachestat, and preadv2's RWF_NOWAIT, which tells whether a page is
        // cached).
        libc::SYS_fadvise64,
        libc::SYS_readahead,
        CACHESTAT,
        libc::SYS_preadv2,
        libc::SYS_pwritev2,
        // futex2 (Linux 6.7): glibc does not use it, and its private flag sits elsewhere
        // than futex's (see FUTEX_SHARED_WAKES).
        FUTEX_WAITV,
        FUTEX_WAKE,
        FUTEX_WAIT,
        FUTEX_REQUEUE,
        // The kernel's log: a run's crash is logged there with its address ("segfault at
        // ..."), where the next run could read it.
        libc::SYS_syslog,
    ];

    // Calls newer than libc's lists; numbers from 424 on are the same on every
    // architecture.
    /// `open_tree_attr` (Linux 6.15).
    const OPEN_TREE_ATTR: libc::c_long = 467;
    /// `cachestat` (Linux 6.5).
    const CACHESTAT: libc::c_long = 451;
    /// `futex_waitv` (Linux 5.16), `futex_wake`, `futex_wait`, `futex_requeue` (6.7).
    const FUTEX_WAITV: libc::c_long = 449;
    const FUTEX_WAKE: libc::c_long = 454;
    const FUTEX_WAIT: libc::c_long = 455;
    const FUTEX_REQUEUE: libc::c_long = 456;
    /// `setxattrat` and `removexattrat` (Linux 6.13).
    const SETXATTRAT: libc::c_long = 463;
    const REMOVEXATTRAT: libc::c_long = 466;

    /// Calls decided by an argument.
    const RULES: [ArgRule; 5] = [
        // On both architectures, clone's flags are its first argument (s390 is the
        // exception).
        ArgRule::clone(libc::SYS_clone as u32),
        ArgRule::fcntl(libc::SYS_fcntl as u32),
        ArgRule::futex(libc::SYS_futex as u32),
        ArgRule::local_sockets_only(libc::SYS_socket as u32),
        ArgRule::local_sockets_only(libc::SYS_socketpair as u32),
    ];

    const DENIED_NUMBERS: [u32; DENIED.len()] = {
        let mut numbers = [0; DENIED.len()];
        let mut index = 0;
        while index < DENIED.len() {
            numbers[index] = DENIED[index] as u32;
            index += 1;
        }
        numbers
    };

    pub(super) const ABI: Abi = Abi {
        // EM_X86_64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE
        #[cfg(target_arch = "x86_64")]
        audit_arch: 0xc000_003e,
        // EM_AARCH64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE
        #[cfg(target_arch = "aarch64")]
        audit_arch: 0xc000_00b7,
        // __X32_SYSCALL_BIT
        #[cfg(target_arch = "x86_64")]
        x32_bit: Some(0x4000_0000),
        #[cfg(target_arch = "aarch64")]
        x32_bit: None,
        clone3: libc::SYS_clone3 as u32,
        rules: &RULES,
        denied: &DENIED_NUMBERS,
    };

    static PROGRAM: [Insn; ABI.program_len()] = build(&ABI);

    pub(super) const FILTER: Option<&[Insn]> = Some(&PROGRAM);

    /// `struct sock_fprog`.
    #[repr(C)]
    struct Fprog {
        len: libc::c_ushort,
        filter: *const Insn,
    }

    /// SAFETY: only system calls, on memory that exists already; fine between fork and exec.
    pub(super) unsafe fn install(program: &'static [Insn]) -> io::Result<()> {
        let fprog = Fprog {
            len: program.len() as libc::c_ushort,
            filter: program.as_ptr(),
        };
        let errno = || io::Error::last_os_error().raw_os_error();
        // prctl and syscall are variadic: every argument is passed as a full long, which
        // PR_SET_NO_NEW_PRIVS checks (its unused arguments must be 0).
        const ZERO: libc::c_ulong = 0;
        const ONE: libc::c_ulong = 1;
        // SAFETY: prctl and seccomp read only the struct they are given, which lives until
        // they return; the kernel copies the program.
        unsafe {
            // Required to install a filter without CAP_SYS_ADMIN (the run's user has none);
            // it also keeps set-user-ID programs in the sandbox from gaining anything.
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, ONE, ZERO, ZERO, ZERO) != 0 {
                return Err(io::Error::last_os_error());
            }
            // SPEC_ALLOW: before Linux 5.16 a filter also turned on the Speculative Store
            // Bypass mitigation, which slows the program (and its measured times) and
            // protects nothing here: the program is native code that may read its own
            // memory anyway.
            let mut result = libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER as libc::c_ulong,
                libc::SECCOMP_FILTER_FLAG_SPEC_ALLOW,
                &fprog as *const Fprog,
            );
            if result != 0 && errno() == Some(libc::EINVAL) {
                // Linux before 4.17 knows no SPEC_ALLOW.
                result = libc::syscall(
                    libc::SYS_seccomp,
                    libc::SECCOMP_SET_MODE_FILTER as libc::c_ulong,
                    ZERO,
                    &fprog as *const Fprog,
                );
            }
            if result != 0 && errno() == Some(libc::ENOSYS) {
                // Linux before 3.17 has no seccomp(2).
                result = libc::prctl(
                    libc::PR_SET_SECCOMP,
                    libc::SECCOMP_MODE_FILTER as libc::c_ulong,
                    &fprog as *const Fprog,
                ) as libc::c_long;
            }
            if result != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little")
    )
)))]
mod native {
    use std::io;

    use super::Insn;

    pub(super) const FILTER: Option<&[Insn]> = None;

    /// Never called: there is no [`super::Filter`] here.
    pub(super) unsafe fn install(_program: &'static [Insn]) -> io::Result<()> {
        Err(io::ErrorKind::Unsupported.into())
    }
}

/// The run's seccomp filter, ready to install.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    program: &'static [Insn],
}

impl Filter {
    /// The filter for this machine's architecture, or `None` where there is none (other
    /// architectures, other systems): runs then go unfiltered. It is a static program, so
    /// this allocates nothing and may be called anywhere, between fork and exec too.
    pub fn new() -> Option<Filter> {
        native::FILTER.map(|program| Filter { program })
    }

    /// Installs the filter on the calling thread (the child of a fork, which has only
    /// one), for good: it is inherited by every child and kept across exec. Also sets
    /// `PR_SET_NO_NEW_PRIVS`, which the kernel requires.
    ///
    /// # Safety
    /// Only system calls, no allocation: safe between fork and exec. The caller must be
    /// ready for every later system call to be filtered.
    pub unsafe fn install(&self) -> io::Result<()> {
        // SAFETY: passed on to the caller.
        unsafe { native::install(self.program) }
    }
}

/// For the helper, at its start: makes it non-dumpable, so that a program running as the
/// same user (when clings is not root) can neither ptrace it nor read its memory through
/// `/proc/<pid>/mem` or `process_vm_readv`, which the kernel then allows only with
/// CAP_SYS_PTRACE; the program has no capabilities. Exec would undo it, so it must be
/// called by the helper itself, not before bubblewrap.
pub fn protect_helper() -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl with plain integers.
        if unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a classic BPF program on one `struct seccomp_data`, as the kernel does.
    fn decide_args(program: &[Insn], arch: u32, nr: u32, args: [u64; 6]) -> u32 {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&nr.to_le_bytes());
        data[4..8].copy_from_slice(&arch.to_le_bytes());
        for (index, arg) in args.iter().enumerate() {
            data[16 + 8 * index..24 + 8 * index].copy_from_slice(&arg.to_le_bytes());
        }
        let (mut accumulator, mut pc) = (0u32, 0usize);
        loop {
            let insn = program[pc];
            pc += 1;
            let jump = |taken: bool| usize::from(if taken { insn.jt } else { insn.jf });
            match insn.code {
                LD_W_ABS => {
                    let at = insn.k as usize;
                    accumulator = u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
                }
                AND_K => accumulator &= insn.k,
                JEQ_K => pc += jump(accumulator == insn.k),
                JGE_K => pc += jump(accumulator >= insn.k),
                JSET_K => pc += jump(accumulator & insn.k != 0),
                RET_K => return insn.k,
                code => panic!("unexpected instruction {code:#x} at {}", pc - 1),
            }
        }
    }

    /// [`decide_args`] with a first argument and the rest zero.
    fn decide(program: &[Insn], arch: u32, nr: u32, arg0: u64) -> u32 {
        decide_args(program, arch, nr, [arg0, 0, 0, 0, 0, 0])
    }

    const ARCH_TEST: u32 = 0xc000_003e;
    /// Out of order, with neighbours, enough for a search three levels deep.
    const DENIED_TEST: [u32; 13] = [300, 10, 20, 21, 22, 299, 301, 0, 5, 400, 401, 11, 12];
    /// x86_64's numbers.
    const CLONE: u32 = 56;
    const FCNTL: u32 = 72;
    const FUTEX: u32 = 202;
    const SOCKET: u32 = 41;
    const RULES_TEST: [ArgRule; 4] = [
        ArgRule::clone(CLONE),
        ArgRule::fcntl(FCNTL),
        ArgRule::futex(FUTEX),
        ArgRule::local_sockets_only(SOCKET),
    ];
    const WITH_X32: Abi = Abi {
        audit_arch: ARCH_TEST,
        x32_bit: Some(0x4000_0000),
        clone3: 435,
        rules: &RULES_TEST,
        denied: &DENIED_TEST,
    };
    const WITHOUT_X32: Abi = Abi {
        x32_bit: None,
        ..WITH_X32
    };
    /// glibc's fork, and its pthread_create (CLONE_VM | CLONE_FS | CLONE_FILES |
    /// CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID |
    /// CLONE_CHILD_CLEARTID).
    const FORK_FLAGS: u64 = 0x0120_0011;
    const THREAD_FLAGS: u64 = 0x003d_0f00;

    /// What `program` must decide for every call number of `abi` up to 1000, and more.
    fn check(program: &[Insn], abi: &Abi) {
        let arch = abi.audit_arch;
        let ruled: Vec<u32> = abi.rules.iter().map(|rule| rule.nr).collect();
        for nr in (0..1000).filter(|nr| !ruled.contains(nr)) {
            let expected = if abi.denied.contains(&nr) {
                RET_ERRNO | EPERM
            } else if nr == abi.clone3 {
                RET_ERRNO | ENOSYS
            } else {
                RET_ALLOW
            };
            assert_eq!(decide(program, arch, nr, 0), expected, "{nr}");
        }
        let refused = RET_ERRNO | EPERM;
        let (clone, fcntl, futex, socket) = (ruled[0], ruled[1], ruled[2], ruled[3]);
        let clone = |flags| decide(program, arch, clone, flags);
        assert_eq!(clone(FORK_FLAGS), RET_ALLOW);
        assert_eq!(clone(THREAD_FLAGS), RET_ALLOW);
        for flag in [0x0002_0000, 0x0200_0000, 0x1000_0000, 0x4000_0000] {
            assert_eq!(clone(FORK_FLAGS | flag), refused);
        }
        // The kernel reads only the low half of clone's flags.
        assert_eq!(clone(FORK_FLAGS | 0x1000_0000 << 32), RET_ALLOW);
        // fcntl: F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC, F_ADD_SEALS
        // pass; the locks, leases and F_NOTIFY do not, whatever the descriptor.
        let fcntl = |command: u64| decide_args(program, arch, fcntl, [3, command, 0, 0, 0, 0]);
        for command in [0, 1, 2, 3, 4, 1030, 1033] {
            assert_eq!(fcntl(command), RET_ALLOW, "fcntl {command}");
        }
        for command in FCNTL_LOCKS {
            assert_eq!(fcntl(command.into()), refused, "fcntl {command}");
        }
        // futex: private operations pass, and shared waits; shared wakes do not.
        let futex = |op: u64| decide_args(program, arch, futex, [0x1000, op, 1, 0, 0, 0]);
        for command in 0..14 {
            let private = u64::from(command | FUTEX_PRIVATE_FLAG);
            assert_eq!(futex(private), RET_ALLOW, "private futex {command}");
            // FUTEX_CLOCK_REALTIME (256) changes nothing.
            assert_eq!(futex(private | 256), RET_ALLOW, "private futex {command}");
            let expected = match FUTEX_SHARED_WAKES.contains(&command) {
                true => refused,
                false => RET_ALLOW,
            };
            assert_eq!(futex(command.into()), expected, "shared futex {command}");
            assert_eq!(futex(u64::from(command) | 256), expected, "{command}");
        }
        // socket: AF_UNIX only (AF_INET 2, AF_INET6 10, AF_NETLINK 16, AF_VSOCK 40).
        assert_eq!(decide(program, arch, socket, 1), RET_ALLOW);
        for family in [0, 2, 10, 16, 17, 40, 1 << 32 | 2] {
            assert_eq!(decide(program, arch, socket, family), refused, "{family}");
        }
        // i386 through int 0x80 (or arm32): other numbers, nothing to compare.
        assert_eq!(decide(program, 0x4000_0003, 0, 0), RET_KILL_PROCESS);
        let x32 = decide(program, arch, 0x4000_0000 + 272, 0);
        match abi.x32_bit {
            Some(_) => assert_eq!(x32, RET_ERRNO | ENOSYS),
            None => assert_eq!(x32, RET_ALLOW),
        }
    }

    #[test]
    fn the_program_decides_as_designed_with_and_without_x32() {
        let supported = cfg!(all(
            target_os = "linux",
            any(
                target_arch = "x86_64",
                all(target_arch = "aarch64", target_endian = "little")
            )
        ));
        assert_eq!(Filter::new().is_some(), supported);
        let with: [Insn; WITH_X32.program_len()] = build(&WITH_X32);
        check(&with, &WITH_X32);
        let without: [Insn; WITHOUT_X32.program_len()] = build(&WITHOUT_X32);
        check(&without, &WITHOUT_X32);
    }

    #[test]
    fn the_search_finds_exactly_the_denied_calls_for_any_count() {
        for count in 0..=DENIED_TEST.len() {
            let mut sorted = DENIED_TEST[..count].to_vec();
            sorted.sort_unstable();
            let mut program = [stmt(RET_K, RET_ALLOW); 64];
            program[0] = stmt(LD_W_ABS, NR);
            program[63] = stmt(RET_K, RET_ERRNO | EPERM);
            let end = emit_search(&mut program, 1, &sorted, 63);
            assert_eq!(end, 1 + search_len(count), "{count}");
            for nr in 0..1000 {
                let expected = match sorted.contains(&nr) {
                    true => RET_ERRNO | EPERM,
                    false => RET_ALLOW,
                };
                assert_eq!(
                    decide(&program, ARCH_TEST, nr, 0),
                    expected,
                    "{count}: {nr}"
                );
            }
        }
    }

    #[cfg(all(
        target_os = "linux",
        any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_endian = "little")
        )
    ))]
    mod kernel {
        //! The filter installed for real, in forked children. These tests run in a
        //! multithreaded test process, so a child only makes system calls (no allocation,
        //! no panic) and reports through its exit status: an errno, or 0 for success.

        use std::ffi::CStr;
        use std::io;
        use std::os::unix::process::CommandExt;
        use std::process::Command;

        use super::super::{Filter, native, protect_helper};
        use super::{RET_ALLOW, decide};

        /// Forks; the child exits with what `body` returns. Returns the child's wait status.
        fn in_child(body: impl FnOnce() -> i32) -> i32 {
            // SAFETY: the child makes only system calls, then leaves with _exit.
            unsafe {
                let pid = libc::fork();
                assert!(pid >= 0, "fork: {}", io::Error::last_os_error());
                if pid == 0 {
                    libc::_exit(body());
                }
                wait(pid)
            }
        }

        /// The wait status of `pid`, or a status that says waitpid failed.
        fn wait(pid: libc::pid_t) -> i32 {
            let mut status = 0;
            // SAFETY: waitpid writes the status we own.
            match unsafe { libc::waitpid(pid, &mut status, 0) } {
                -1 => 0xff00,
                _ => status,
            }
        }

        /// The exit code of a wait status; a death by signal `n` as 1000 + n.
        fn code(status: i32) -> i32 {
            if libc::WIFEXITED(status) {
                libc::WEXITSTATUS(status)
            } else {
                1000 + libc::WTERMSIG(status)
            }
        }

        /// `body`'s result in a child under the filter; 200 if it could not be installed.
        fn filtered(body: impl FnOnce() -> i32) -> i32 {
            code(in_child(|| {
                // SAFETY: a forked child that makes only system calls from here on.
                match unsafe { Filter::new().unwrap().install() } {
                    Ok(()) => body(),
                    Err(_) => 200,
                }
            }))
        }

        /// 0 for a call that succeeded, else its errno.
        fn errno_of(result: libc::c_long) -> i32 {
            match result {
                -1 => io::Error::last_os_error().raw_os_error().unwrap_or(255),
                _ => 0,
            }
        }

        /// A raw `clone` or `clone3` that, should it create a process, ends that process
        /// at once.
        fn spawned(result: libc::c_long) -> i32 {
            match result {
                // SAFETY: the new process leaves at once.
                0 => unsafe { libc::_exit(0) },
                -1 => errno_of(-1),
                child => code(wait(child as libc::pid_t)) + 300,
            }
        }

        const ABSENT: &CStr = c"/nonexistent-clings-seccomp-test";

        #[test]
        fn every_denied_call_is_refused_with_eperm() {
            for &nr in native::DENIED {
                // All-ones arguments: were the filter missing, each call would fail on
                // them (or find nothing to do) rather than change the machine.
                let errno = filtered(|| {
                    // SAFETY: the call is refused before the kernel looks at anything.
                    errno_of(unsafe { libc::syscall(nr, -1, -1, -1, -1, -1, -1) })
                });
                assert_eq!(errno, libc::EPERM, "system call {nr}");
            }
        }

        #[test]
        fn no_namespace_can_be_made_or_joined() {
            for flags in [libc::CLONE_NEWUSER, libc::CLONE_NEWNS, libc::CLONE_NEWNET] {
                let errno = filtered(|| errno_of(unsafe { libc::unshare(flags) }.into()));
                assert_eq!(errno, libc::EPERM, "unshare({flags:#x})");
            }
            // clone refuses each namespace flag on its own (as root, the kernel would allow
            // any of them).
            for flag in [
                libc::CLONE_NEWNS,
                libc::CLONE_NEWCGROUP,
                libc::CLONE_NEWUTS,
                libc::CLONE_NEWIPC,
                libc::CLONE_NEWUSER,
                libc::CLONE_NEWPID,
                libc::CLONE_NEWNET,
            ] {
                let errno = filtered(|| {
                    // SAFETY: a raw clone without CLONE_VM is a fork; its child leaves at
                    // once.
                    spawned(unsafe {
                        libc::syscall(libc::SYS_clone, flag | libc::SIGCHLD, 0, 0, 0, 0)
                    })
                });
                assert_eq!(errno, libc::EPERM, "clone({flag:#x})");
            }
            let errno =
                filtered(|| errno_of(unsafe { libc::setns(0, libc::CLONE_NEWUSER) }.into()));
            assert_eq!(errno, libc::EPERM, "setns");
        }

        #[test]
        fn clone3_is_unknown_under_the_filter_only() {
            // struct clone_args, as far as exit_signal: flags = CLONE_NEWUSER.
            let mut args = [0u64; 11];
            args[0] = libc::CLONE_NEWUSER as u64;
            args[4] = libc::SIGCHLD as u64;
            let clone3 = |size: usize| {
                // SAFETY: clone3 reads `size` bytes of `args`; a child leaves at once.
                spawned(unsafe { libc::syscall(libc::SYS_clone3, args.as_ptr(), size) })
            };
            assert_eq!(filtered(|| clone3(88)), libc::ENOSYS);
            // Without the filter a kernel that has clone3 rejects a size that is too small:
            // ENOSYS above came from the filter.
            let unfiltered = code(in_child(|| clone3(8)));
            assert!(
                unfiltered == libc::EINVAL || unfiltered == libc::ENOSYS,
                "{unfiltered}"
            );
            assert_eq!(filtered(|| clone3(8)), libc::ENOSYS);
        }

        #[test]
        fn nothing_can_be_mounted() {
            let errno = filtered(|| {
                // SAFETY: C strings that live until the call returns.
                errno_of(
                    unsafe {
                        libc::mount(
                            c"none".as_ptr(),
                            ABSENT.as_ptr(),
                            c"tmpfs".as_ptr(),
                            0,
                            std::ptr::null(),
                        )
                    }
                    .into(),
                )
            });
            assert_eq!(errno, libc::EPERM, "mount");
            let errno = filtered(|| errno_of(unsafe { libc::umount2(ABSENT.as_ptr(), 0) }.into()));
            assert_eq!(errno, libc::EPERM, "umount2");
            let errno = filtered(|| {
                // SAFETY: fsopen reads the C string.
                errno_of(unsafe { libc::syscall(libc::SYS_fsopen, c"tmpfs".as_ptr(), 0) })
            });
            assert_eq!(errno, libc::EPERM, "fsopen");
            let errno = filtered(|| errno_of(unsafe { libc::chroot(c"/".as_ptr()) }.into()));
            assert_eq!(errno, libc::EPERM, "chroot");
        }

        #[test]
        fn the_keyring_is_out_of_reach() {
            const KEY_SPEC_PROCESS_KEYRING: libc::c_long = -2;
            const KEY_SPEC_USER_KEYRING: libc::c_long = -4;
            const KEYCTL_GET_KEYRING_ID: libc::c_long = 0;
            let errno = filtered(|| {
                // SAFETY: add_key reads the C strings and the one byte of payload. (Into
                // the process keyring, which would die with the child.)
                errno_of(unsafe {
                    libc::syscall(
                        libc::SYS_add_key,
                        c"user".as_ptr(),
                        c"clings-seccomp-test".as_ptr(),
                        c"x".as_ptr(),
                        1,
                        KEY_SPEC_PROCESS_KEYRING,
                    )
                })
            });
            assert_eq!(errno, libc::EPERM, "add_key");
            let errno = filtered(|| {
                // SAFETY: integers only.
                errno_of(unsafe {
                    libc::syscall(
                        libc::SYS_keyctl,
                        KEYCTL_GET_KEYRING_ID,
                        KEY_SPEC_USER_KEYRING,
                        0,
                    )
                })
            });
            assert_eq!(errno, libc::EPERM, "keyctl");
            let errno = filtered(|| {
                // SAFETY: request_key reads the C strings.
                errno_of(unsafe {
                    libc::syscall(
                        libc::SYS_request_key,
                        c"user".as_ptr(),
                        c"clings-seccomp-test".as_ptr(),
                        0,
                        0,
                    )
                })
            });
            assert_eq!(errno, libc::EPERM, "request_key");
        }

        #[test]
        fn the_parent_cannot_be_traced_or_read() {
            // The parent is a process of its own, which the filtered child attacks: were
            // the attach to work, the child kills it rather than leave it stopped.
            let attack = |body: fn(libc::pid_t) -> libc::c_long| {
                code(in_child(|| {
                    code(in_child(|| {
                        let parent = unsafe { libc::getppid() };
                        let errno = filtered_here(|| errno_of(body(parent)));
                        if errno == 0 {
                            unsafe { libc::kill(parent, libc::SIGKILL) };
                        }
                        errno
                    }))
                }))
            };
            let attach = |pid: libc::pid_t| unsafe {
                libc::ptrace(
                    libc::PTRACE_ATTACH,
                    pid,
                    0 as libc::c_long,
                    0 as libc::c_long,
                )
            };
            assert_eq!(attack(attach), libc::EPERM, "PTRACE_ATTACH");
            let seize = |pid: libc::pid_t| unsafe {
                libc::ptrace(
                    libc::PTRACE_SEIZE,
                    pid,
                    0 as libc::c_long,
                    0 as libc::c_long,
                )
            };
            assert_eq!(attack(seize), libc::EPERM, "PTRACE_SEIZE");
            let read = |pid: libc::pid_t| {
                let mut byte = 0u8;
                let local = libc::iovec {
                    iov_base: (&raw mut byte).cast(),
                    iov_len: 1,
                };
                // Its own stack address is mapped in the parent too (fork copied it).
                let remote = local;
                // SAFETY: writes at most one byte into `byte`.
                unsafe { libc::process_vm_readv(pid, &local, 1, &remote, 1, 0) as libc::c_long }
            };
            assert_eq!(attack(read), libc::EPERM, "process_vm_readv");
        }

        /// Installs the filter in this (already forked) process and runs `body`.
        fn filtered_here(body: impl FnOnce() -> i32) -> i32 {
            // SAFETY: a forked child that makes only system calls from here on.
            match unsafe { Filter::new().unwrap().install() } {
                Ok(()) => body(),
                Err(_) => 200,
            }
        }

        extern "C" fn thread_body(argument: *mut libc::c_void) -> *mut libc::c_void {
            argument.wrapping_add(1)
        }

        #[test]
        fn fork_threads_and_exec_still_work() {
            let forked = filtered(|| {
                // SAFETY: the grandchild leaves at once.
                match unsafe { libc::fork() } {
                    0 => unsafe { libc::_exit(42) },
                    -1 => errno_of(-1),
                    child => code(wait(child)),
                }
            });
            assert_eq!(forked, 42, "fork");
            // glibc's pthread_create tries clone3 first and takes clone on ENOSYS.
            let threaded = filtered(|| unsafe {
                let mut thread: libc::pthread_t = 0;
                let started = libc::pthread_create(
                    &mut thread,
                    std::ptr::null(),
                    thread_body,
                    std::ptr::null_mut(),
                );
                if started != 0 {
                    return started;
                }
                let mut returned = std::ptr::null_mut();
                libc::pthread_join(thread, &mut returned);
                if returned as usize == 1 { 0 } else { 100 }
            });
            assert_eq!(threaded, 0, "pthread_create");
            let executed = filtered(|| {
                let argv = [c"true".as_ptr(), std::ptr::null()];
                // SAFETY: a null-terminated argv of C strings.
                unsafe { libc::execv(c"/bin/true".as_ptr(), argv.as_ptr()) };
                errno_of(-1)
            });
            assert_eq!(executed, 0, "execv");
            // posix_spawn: clone3, then clone(CLONE_VM | CLONE_VFORK).
            let spawned = filtered(|| unsafe {
                let mut child = 0;
                let argv = [c"true".as_ptr().cast_mut(), std::ptr::null_mut()];
                let envp = [std::ptr::null_mut()];
                match libc::posix_spawn(
                    &mut child,
                    c"/bin/true".as_ptr(),
                    std::ptr::null(),
                    std::ptr::null(),
                    argv.as_ptr(),
                    envp.as_ptr(),
                ) {
                    0 => code(wait(child)),
                    errno => errno,
                }
            });
            assert_eq!(spawned, 0, "posix_spawn");
        }

        #[test]
        fn channels_through_shared_files_and_sockets_are_refused_by_argument() {
            // A file any run can open read-only, as the system's directories are.
            let file = tempfile::NamedTempFile::new().unwrap();
            let fd = std::os::fd::AsRawFd::as_raw_fd(file.as_file());
            let fcntl = |command: libc::c_int| {
                filtered(|| {
                    let mut lock: libc::flock = unsafe { std::mem::zeroed() };
                    lock.l_type = libc::F_RDLCK as libc::c_short;
                    // SAFETY: fcntl reads and writes the struct we own.
                    errno_of(unsafe { libc::fcntl(fd, command, &mut lock) }.into())
                })
            };
            for command in [
                libc::F_SETLK,
                libc::F_SETLKW,
                libc::F_GETLK,
                libc::F_OFD_SETLK,
                libc::F_OFD_SETLKW,
                libc::F_OFD_GETLK,
            ] {
                assert_eq!(fcntl(command), libc::EPERM, "fcntl {command}");
            }
            let flags = filtered(|| errno_of(unsafe { libc::fcntl(fd, libc::F_GETFL) }.into()));
            assert_eq!(flags, 0, "F_GETFL");
            let flock = filtered(|| errno_of(unsafe { libc::flock(fd, libc::LOCK_SH) }.into()));
            assert_eq!(flock, libc::EPERM, "flock");
            // Unfiltered, the same lock is taken: EPERM came from the filter.
            assert_eq!(
                code(in_child(|| errno_of(
                    unsafe { libc::flock(fd, libc::LOCK_SH) }.into()
                ))),
                0
            );
            let xattr = filtered(|| {
                // SAFETY: C strings and one byte that live until the call returns.
                errno_of(
                    unsafe {
                        libc::fsetxattr(fd, c"user.clings".as_ptr(), c"x".as_ptr().cast(), 1, 0)
                    }
                    .into(),
                )
            });
            assert_eq!(xattr, libc::EPERM, "fsetxattr");
            let watch = filtered(|| errno_of(unsafe { libc::inotify_init1(0) }.into()));
            assert_eq!(watch, libc::EPERM, "inotify_init1");

            // futex: a shared wake is refused, a private one and a shared wait are not.
            let futex = |op: libc::c_int| {
                filtered(|| {
                    let word = 7u32;
                    // SAFETY: the futex word lives until the call returns; a wait whose
                    // value differs returns at once (EAGAIN).
                    let result = unsafe { libc::syscall(libc::SYS_futex, &word, op, 1, 0, 0, 0) };
                    match (result, op & 127) {
                        (-1, libc::FUTEX_WAIT) => match errno_of(-1) {
                            libc::EAGAIN => 0,
                            errno => errno,
                        },
                        _ => errno_of(result.min(0)),
                    }
                })
            };
            assert_eq!(futex(libc::FUTEX_WAKE), libc::EPERM, "shared FUTEX_WAKE");
            assert_eq!(
                futex(libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG),
                0,
                "FUTEX_WAKE_PRIVATE"
            );
            assert_eq!(futex(libc::FUTEX_WAIT), 0, "shared FUTEX_WAIT");

            for (family, expected) in [
                (libc::AF_UNIX, 0),
                (libc::AF_INET, libc::EPERM),
                (libc::AF_INET6, libc::EPERM),
                (libc::AF_NETLINK, libc::EPERM),
                (libc::AF_VSOCK, libc::EPERM),
            ] {
                let errno = filtered(|| {
                    // SAFETY: integers only; the socket dies with the child.
                    errno_of(
                        unsafe { libc::socket(family, libc::SOCK_DGRAM, 0) }
                            .min(0)
                            .into(),
                    )
                });
                assert_eq!(errno, expected, "socket({family})");
            }
            let pair = filtered(|| {
                let mut fds = [0; 2];
                // SAFETY: socketpair writes the two descriptors we own.
                errno_of(
                    unsafe {
                        libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, fds.as_mut_ptr())
                    }
                    .into(),
                )
            });
            assert_eq!(pair, 0, "socketpair(AF_UNIX)");
        }

        #[test]
        fn the_native_program_denies_exactly_its_list() {
            let program = Filter::new().unwrap().program;
            let abi = &native::ABI;
            super::check(program, abi);
            for nr in [
                libc::SYS_read,
                libc::SYS_write,
                libc::SYS_mmap,
                libc::SYS_execve,
                libc::SYS_wait4,
            ] {
                assert_eq!(
                    decide(program, abi.audit_arch, nr as u32, 0),
                    RET_ALLOW,
                    "{nr}"
                );
            }
            // Far below BPF_MAXINSNS (4096).
            assert!(program.len() < 200, "{}", program.len());
        }

        /// Runs `command` with the filter installed between fork and exec, as the helper
        /// does; returns its output, or `None` where the command is not installed.
        fn run_filtered(mut command: Command) -> Option<std::process::Output> {
            // SAFETY: install makes only system calls.
            unsafe {
                command.pre_exec(|| Filter::new().unwrap().install());
            }
            match command.output() {
                Err(err) if err.kind() == io::ErrorKind::NotFound => None,
                output => Some(output.unwrap()),
            }
        }

        #[test]
        fn gcc_and_sanitized_threaded_programs_work_under_the_filter() {
            let dir = tempfile::tempdir().unwrap();
            let source = dir.path().join("threads.c");
            std::fs::write(
                &source,
                "#include <pthread.h>\n#include <stdio.h>\n#include <stdlib.h>\n\
                 #include <unistd.h>\n#include <sys/wait.h>\n\
                 static void *work(void *n) { return (char *)n + 1; }\n\
                 int main(void) {\n\
                   void *r; pthread_t t; int s;\n\
                   char *p = malloc(16); p[0] = 'o'; p[1] = 'k'; p[2] = 0;\n\
                   if (pthread_create(&t, NULL, work, p) || pthread_join(t, &r)) return 1;\n\
                   pid_t c = fork(); if (c == 0) _exit(3);\n\
                   waitpid(c, &s, 0);\n\
                   printf(\"%s %d %d\\n\", (char *)r - 1, WEXITSTATUS(s), system(\"exit 4\") >> 8);\n\
                   free(p); return 0;\n\
                 }\n",
            )
            .unwrap();
            for sanitizers in ["", "-fsanitize=address,undefined"] {
                let binary = dir.path().join("threads");
                let mut gcc = Command::new("gcc");
                gcc.args(["-std=c99", "-D_DEFAULT_SOURCE", "-pthread", "-o"])
                    .arg(&binary)
                    .arg(&source)
                    .args(sanitizers.split_whitespace());
                let Some(compiled) = run_filtered(gcc) else {
                    eprintln!("gcc is not installed: not tested");
                    return;
                };
                assert!(
                    compiled.status.success(),
                    "gcc {sanitizers}: {}",
                    String::from_utf8_lossy(&compiled.stderr)
                );
                let mut program = Command::new(&binary);
                program.env("ASAN_OPTIONS", "detect_leaks=0");
                let ran = run_filtered(program).unwrap();
                assert_eq!(
                    String::from_utf8_lossy(&ran.stdout),
                    "ok 3 4\n",
                    "{sanitizers}: {}",
                    String::from_utf8_lossy(&ran.stderr)
                );
            }
        }

        #[test]
        fn a_protected_helper_cannot_be_traced_by_its_own_user() {
            // The helper drops to an unprivileged user first when the tests run as root,
            // then (maybe) protects itself and starts a child of the same user, which
            // tries to trace it. PTRACE_SEIZE does not stop the tracee.
            let attempt = |protect: bool| {
                code(in_child(|| unsafe {
                    if libc::geteuid() == 0 && libc::setresuid(65534, 65534, 65534) != 0 {
                        return 201;
                    }
                    // Changing user made it non-dumpable; only protect_helper should.
                    libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
                    if protect && protect_helper().is_err() {
                        return 202;
                    }
                    code(in_child(|| {
                        errno_of(libc::ptrace(
                            libc::PTRACE_SEIZE,
                            libc::getppid(),
                            0 as libc::c_long,
                            0 as libc::c_long,
                        ))
                    }))
                }))
            };
            assert_eq!(attempt(true), libc::EPERM);
            // Without protection the same child could trace it, unless Yama forbids
            // tracing anything but descendants.
            let yama = std::fs::read_to_string("/proc/sys/kernel/yama/ptrace_scope")
                .map_or(0, |scope| scope.trim().parse().unwrap_or(1));
            if yama == 0 {
                assert_eq!(attempt(false), 0);
            }
            let dumpable = code(in_child(|| unsafe {
                protect_helper().map_or(203, |()| libc::prctl(libc::PR_GET_DUMPABLE))
            }));
            assert_eq!(dumpable, 0);
        }
    }
}

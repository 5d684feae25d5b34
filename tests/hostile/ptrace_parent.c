/* Tries to take over the process that supervises it: with ptrace its parent (inside the
 * sandbox, the helper that enforces the limits and reports how the run ended) could be
 * stopped, or made to report a pass. It tries PTRACE_ATTACH and PTRACE_SEIZE on its
 * parent and on pid 1 (the same process in the sandbox), and to read the parent's memory
 * with process_vm_readv and through /proc/<pid>/mem. Anything it attached it lets go at
 * once. stdout has one fixed line per attempt, "...: refused" in a contained run; stderr
 * says why. Exits 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(const char *what, int error)
{
    if (error == 0) {
        printf("%s: allowed\n", what);
    } else {
        /* EPERM and EACCES are refusals; anything else (ESRCH, EFAULT) got past the
         * permission check, or found no target, and is shown as such. */
        int refusal = error == EPERM || error == EACCES;
        printf("%s: %s\n", what, refusal ? "refused" : strerror(error));
        fprintf(stderr, "%s: %s\n", what, strerror(error));
    }
}

static void trace(const char *what, int request, pid_t pid)
{
    if (ptrace(request, pid, NULL, NULL) != 0) {
        report(what, errno);
        return;
    }
    report(what, 0);
    if (request == PTRACE_ATTACH) {
        /* Wait for the stop that PTRACE_ATTACH sends before letting go. */
        int status;
        waitpid(pid, &status, __WALL);
    }
    ptrace(PTRACE_DETACH, pid, NULL, NULL);
}

/* The start of the first mapping of `pid`, or 0 when its maps cannot be read. */
static unsigned long first_mapping(pid_t pid)
{
    char path[64];
    unsigned long start = 0;
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *maps = fopen(path, "r");
    if (maps) {
        if (fscanf(maps, "%lx", &start) != 1)
            start = 0;
        fclose(maps);
    }
    return start;
}

static void read_with_process_vm_readv(pid_t pid)
{
    char buffer[16];
    unsigned long address = first_mapping(pid);
    struct iovec local = {buffer, sizeof buffer};
    struct iovec remote = {(void *)address, sizeof buffer};
    ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    /* EFAULT: past the permission check, at an address that is not mapped (the maps
     * could not be read): allowed all the same. */
    report("read parent memory (process_vm_readv)", got >= 0 || errno == EFAULT ? 0 : errno);
}

/* Opening checks the permission; what the read then finds does not matter. */
static void read_through_proc(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    int fd = open(path, O_RDONLY);
    report("read parent memory (/proc/pid/mem)", fd >= 0 ? 0 : errno);
    if (fd >= 0)
        close(fd);
}

int main(void)
{
    pid_t parent = getppid();
    trace("attach parent", PTRACE_ATTACH, parent);
    trace("seize parent", PTRACE_SEIZE, parent);
    trace("attach pid 1", PTRACE_ATTACH, 1);
    trace("seize pid 1", PTRACE_SEIZE, 1);
    read_with_process_vm_readv(parent);
    read_through_proc(parent);
    return 0;
}

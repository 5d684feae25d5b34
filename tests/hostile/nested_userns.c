/* Tries to escape the run's memory limits through a user namespace of its own: unshare a
 * user and a mount namespace, map itself to root there, mount a tmpfs (which lives in the
 * host's memory, outside any per-process limit) and write 2 GiB into it, file after file
 * so that RLIMIT_FSIZE does not stop it. stdout says what it managed, one fixed line per
 * step, so that a contained run prints "userns: refused" and "tmpfs: refused"; stderr
 * says why. It exits 0 either way. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024L * 1024L)
#define GOAL_MIB 2048L

/* Writes `text` to `path`, as for /proc/self/uid_map; 0 on success. */
static int put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t written = write(fd, text, strlen(text));
    close(fd);
    return written == (ssize_t)strlen(text) ? 0 : -1;
}

/* Root in the new namespace is the old user outside; without the map, files cannot be
 * created on the tmpfs. */
static void map_to_root(uid_t uid, gid_t gid)
{
    char line[64];
    put("/proc/self/setgroups", "deny");
    snprintf(line, sizeof line, "0 %u 1\n", (unsigned)uid);
    if (put("/proc/self/uid_map", line) != 0)
        fprintf(stderr, "uid_map: %s\n", strerror(errno));
    snprintf(line, sizeof line, "0 %u 1\n", (unsigned)gid);
    if (put("/proc/self/gid_map", line) != 0)
        fprintf(stderr, "gid_map: %s\n", strerror(errno));
}

/* Fills `dir` with files of 1 MiB blocks, a new file whenever one is refused more;
 * returns the MiB written. */
static long fill(const char *dir)
{
    static char block[MIB];
    memset(block, 'x', sizeof block);
    long total = 0;
    for (int file = 0; total < GOAL_MIB; file++) {
        char path[256];
        snprintf(path, sizeof path, "%s/fill%d", dir, file);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) {
            fprintf(stderr, "open %s: %s\n", path, strerror(errno));
            break;
        }
        long in_file = 0;
        while (total < GOAL_MIB && write(fd, block, sizeof block) == (ssize_t)sizeof block) {
            in_file++;
            total++;
        }
        close(fd);
        if (in_file == 0) {
            fprintf(stderr, "write %s: %s\n", path, strerror(errno));
            break;
        }
    }
    return total;
}

int main(void)
{
    uid_t uid = getuid();
    gid_t gid = getgid();
    /* A file past RLIMIT_FSIZE must fail with EFBIG, not kill: the next file goes on. */
    signal(SIGXFSZ, SIG_IGN);

    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0) {
        printf("userns: created\n");
        map_to_root(uid, gid);
    } else {
        printf("userns: refused\n");
        fprintf(stderr, "unshare: %s\n", strerror(errno));
    }
    fflush(stdout);

    /* Tried even without a namespace of its own: a run must not be able to mount at all. */
    const char *dir = "clings-tmpfs";
    mkdir(dir, 0700);
    if (mount("none", dir, "tmpfs", 0, "size=4g") != 0) {
        printf("tmpfs: refused\n");
        fprintf(stderr, "mount: %s\n", strerror(errno));
        return 0;
    }
    printf("tmpfs: mounted\n");
    fflush(stdout);
    printf("tmpfs: wrote %ld MiB\n", fill(dir));
    return 0;
}

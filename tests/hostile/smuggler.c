/* Tries to move a hidden case's input into a public case's output, through what two runs
 * share when their sandboxes do: a later run in the same sandbox, or a run beside it on
 * another worker.
 * stdin: "hide SECRET" (the hidden case: SECRET is 8 letters or digits) leaves SECRET
 * wherever it can and holds it there for a while; "seek" looks for it everywhere, for as
 * long, and prints "found nothing", or what it found.
 * The channels: extended attributes on its working directory, its program's directory and
 * its program; that directory's mode and timestamp; a pid count in a pid namespace (the
 * hidden run forks once per letter of the alphabet up to SECRET's first letter); a byte-range lock, an open file
 * description lock and a whole-file lock on a file of the system's directories, which both
 * sandboxes can open; an inotify watch on another, which sees the other run open it. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* Files every sandbox shows (the system's directories): one to lock, one to watch. */
#define SHARED "/usr/bin/true"
#define WATCHED "/usr/lib/os-release"
#define ATTRIBUTE "user.clings-secret"
#define HOLD_MS 600

static int found;

static void say(const char *channel, const char *what)
{
    printf("found through %s: %s\n", channel, what);
    found++;
}

static void sleep_ms(long ms)
{
    struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

static long elapsed_ms(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* The program's directory, from /proc/self/exe. */
static void program_dir(char *dir, size_t size)
{
    ssize_t length = readlink("/proc/self/exe", dir, size - 1);
    dir[length > 0 ? length : 0] = 0;
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = 0;
}

static uint64_t pack(const char *secret)
{
    uint64_t value = 0;
    for (int i = 0; i < 8 && secret[i]; i++)
        value |= (uint64_t)(unsigned char)secret[i] << (8 * i);
    /* Lock offsets are signed: keep it positive. */
    return value & 0x7fffffffffffffffULL;
}

static void unpack(uint64_t value, char *text)
{
    for (int i = 0; i < 8; i++)
        text[i] = (char)((value >> (8 * i)) & 0xff);
    text[7] = text[7] ? text[7] : '?';
    text[8] = 0;
}

static void hide(const char *secret)
{
    char dir[4096], exe[4096];
    program_dir(dir, sizeof dir);
    readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *places[] = {".", dir, exe, "/proc/self/exe"};
    for (size_t i = 0; i < sizeof places / sizeof *places; i++)
        setxattr(places[i], ATTRIBUTE, secret, strlen(secret), 0);
    chmod(".", 0700);
    struct timespec times[2] = {{.tv_sec = 1000 + secret[0]}, {.tv_sec = 1000 + secret[0]}};
    utimensat(AT_FDCWD, ".", times, 0);
    for (int letter = 'a'; letter < secret[0]; letter++)
        if (fork() == 0)
            _exit(0);
    while (wait(NULL) > 0)
        ;
    int shared = open(SHARED, O_RDONLY);
    struct flock lock = {.l_type = F_RDLCK, .l_whence = SEEK_SET,
                         .l_start = (off_t)pack(secret), .l_len = 1};
    fcntl(shared, F_SETLK, &lock);
    int ofd = open(SHARED, O_RDONLY);
    struct flock ofd_lock = lock;
    ofd_lock.l_start = (off_t)pack(secret) + 1;
    ofd_lock.l_pid = 0;
    fcntl(ofd, F_OFD_SETLK, &ofd_lock);
    flock(open(SHARED, O_RDONLY), LOCK_EX);
    /* Hold them, and open the file again and again for a watcher. */
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (elapsed_ms(&start) < HOLD_MS) {
        close(open(WATCHED, O_RDONLY));
        sleep_ms(5);
    }
    puts("hidden");
}

static void seek(void)
{
    char dir[4096], exe[4096], value[64];
    program_dir(dir, sizeof dir);
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[length > 0 ? length : 0] = 0;
    const char *places[] = {".", dir, exe};
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        ssize_t got = getxattr(places[i], ATTRIBUTE, value, sizeof value - 1);
        if (got > 0) {
            value[got] = 0;
            say("an extended attribute", value);
        }
    }
    struct stat here;
    if (stat(".", &here) == 0) {
        if ((here.st_mode & 0777) != 0777) {
            snprintf(value, sizeof value, "mode %o", here.st_mode & 0777);
            say("the working directory", value);
        }
        if (here.st_mtime < 1000000000) {
            snprintf(value, sizeof value, "first letter %c", (char)(here.st_mtime - 1000));
            say("a timestamp", value);
        }
    }
    /* In a pid namespace of the run's own (its init, the parent, is pid 1) the program is
     * pid 2 unless a run before it forked there. Without one (the container tier) pids are
     * the machine's, and no run can tell another's forks from the machine's: clings runs
     * the hidden cases after every case whose output the student sees. */
    if (getppid() == 1 && getpid() != 2) {
        snprintf(value, sizeof value, "pid %d, first letter %c", getpid(), 'a' + getpid() - 3);
        say("the pid count", value);
    }
    int watch = inotify_init1(IN_NONBLOCK);
    if (watch >= 0)
        inotify_add_watch(watch, WATCHED, IN_OPEN);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int locked = 0, watched = 0;
    while (elapsed_ms(&start) < HOLD_MS && !(locked && watched)) {
        int shared = open(SHARED, O_RDONLY);
        struct flock probe = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (!locked && fcntl(shared, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK) {
            char text[9];
            unpack((uint64_t)probe.l_start, text);
            say("a lock", text);
            locked = 1;
        }
        struct flock ofd_probe = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        if (!locked && fcntl(shared, F_OFD_GETLK, &ofd_probe) == 0 &&
            ofd_probe.l_type != F_UNLCK) {
            char text[9];
            unpack((uint64_t)ofd_probe.l_start - 1, text);
            say("an open file description lock", text);
            locked = 1;
        }
        if (!locked && flock(shared, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
            say("a whole-file lock", "taken");
            locked = 1;
        }
        close(shared);
        char events[4096];
        if (watch >= 0 && !watched && read(watch, events, sizeof events) > 0)
            watched = 1;
        sleep_ms(5);
    }
    if (watched)
        say("an inotify watch", "opens");
    if (!found)
        puts("found nothing");
}

int main(void)
{
    char mode[16] = "", secret[16] = "";
    if (scanf("%15s", mode) != 1)
        return 1;
    if (strcmp(mode, "hide") == 0 && scanf("%15s", secret) == 1)
        hide(secret);
    else
        seek();
    return 0;
}

/* Reports what it started with: its environment's names, every descriptor past stderr,
 * how many bytes stdin holds, what its working directory holds, the core-dump limit and
 * whether it can be raised, its session and whether it leads its process group, its
 * namespaces, and whether it can leave a file in /tmp or /dev/shm (removed at once). A run
 * must start clean, whatever clings itself had. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
    for (char **entry = environ; *entry; entry++)
        printf("env %.*s\n", (int)strcspn(*entry, "="), *entry);
    for (int fd = 3; fd < 4096; fd++)
        if (fcntl(fd, F_GETFD) != -1)
            printf("fd %d\n", fd);
    long bytes = 0;
    char buffer[4096];
    for (ssize_t got; (got = read(0, buffer, sizeof buffer)) > 0;)
        bytes += got;
    printf("stdin %ld bytes\n", bytes);
    int entries = 0;
    DIR *cwd = opendir(".");
    for (struct dirent *entry; cwd && (entry = readdir(cwd));)
        entries += strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..");
    printf("cwd %d entries\n", entries);
    struct rlimit core;
    getrlimit(RLIMIT_CORE, &core);
    struct rlimit raised = {RLIM_INFINITY, RLIM_INFINITY};
    printf("core %lld %lld, raised: %s\n", (long long)core.rlim_cur, (long long)core.rlim_max,
           setrlimit(RLIMIT_CORE, &raised) == 0 ? "yes" : "no");
    printf("session %d, leads its process group: %s\n", (int)getsid(0),
           getpgrp() == getpid() ? "yes" : "no");
    const char *kinds[] = {"mnt", "pid", "net", "ipc", "uts", "cgroup"};
    for (int i = 0; i < 6; i++) {
        char path[64], target[128];
        snprintf(path, sizeof path, "/proc/self/ns/%s", kinds[i]);
        ssize_t length = readlink(path, target, sizeof target - 1);
        target[length > 0 ? length : 0] = '\0';
        printf("ns %s\n", target);
    }
    const char *shared[] = {"/tmp", "/dev/shm"};
    for (int i = 0; i < 2; i++) {
        char path[64];
        snprintf(path, sizeof path, "%s/clings-run-start-%d", shared[i], (int)getpid());
        int file = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (file >= 0) {
            close(file);
            unlink(path);
        }
        printf("left in %s: %s\n", shared[i], file >= 0 ? "yes" : "no");
    }
    return 0;
}

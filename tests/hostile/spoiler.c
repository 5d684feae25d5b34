/* Spoils what it can for the run after it, a classmate's in `clings grade`: extended
 * attributes of 64 KiB, as many as it may set, on its working directory, a file in it and
 * its program's directory (their kernel memory would stay charged to the run's cgroup,
 * and on the directory itself); its working directory made unwritable and its timestamp
 * set; the rest of its scratch space filled; fifteen sleepers in sessions of their own; a
 * whole-file lock on a file of the system's directories. Then it prints a wrong sum, as an
 * ordinary wrong program does, and exits 0. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static char value[64 * 1024];

static void attributes(const char *path)
{
    char name[64];
    for (int i = 0; i < 4096; i++) {
        snprintf(name, sizeof name, "user.spoil%d", i);
        if (setxattr(path, name, value, sizeof value, 0) != 0)
            break;
    }
}

int main(void)
{
    int a = 0, b = 0;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    memset(value, 'x', sizeof value);
    close(open("file", O_CREAT | O_WRONLY, 0600));
    attributes(".");
    attributes("file");
    char dir[4096];
    ssize_t length = readlink("/proc/self/exe", dir, sizeof dir - 1);
    dir[length > 0 ? length : 0] = 0;
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = 0;
        attributes(dir);
    }
    FILE *fill = fopen("fill", "w");
    for (int i = 0; fill && i < 4096 && fwrite(value, 1, 1024, fill) == 1024; i++)
        ;
    if (fill)
        fclose(fill);
    flock(open("/usr/bin/true", O_RDONLY), LOCK_EX);
    for (int i = 0; i < 15; i++)
        if (fork() == 0) {
            setsid();
            for (;;)
                pause();
        }
    struct timespec times[2] = {{.tv_sec = 1}, {.tv_sec = 1}};
    utimensat(AT_FDCWD, ".", times, 0);
    chmod(".", 0);
    printf("%d\n", a + b + 1);
    return 0;
}

/* Appends "begin NAME" to the file LOG, sleeps a fifth of a second, appends "end NAME" and
   prints "ok": from stdin "NAME LOG". Graded without isolation, the log shows which runs
   overlapped. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void note(int log, const char *what, const char *name)
{
    char line[128];
    int length = snprintf(line, sizeof line, "%s %s\n", what, name);
    if (write(log, line, (size_t)length) != length)
        perror("write");
}

int main(void)
{
    char name[32], path[4096];
    if (scanf("%31s %4095s", name, path) != 2)
        return 1;
    int log = open(path, O_WRONLY | O_APPEND);
    if (log < 0)
        return 2;
    note(log, "begin", name);
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    note(log, "end", name);
    close(log);
    puts("ok");
    return 0;
}

/* Forks as many children as its process limit lets it, each in a session of its own
 * sleeping a minute, once the tasks of its user have stopped changing (the run's own
 * threads started, those of clings that were ending gone): then nothing but its forks
 * changes the count the limit is checked against. Reports the children made, why the
 * next fork failed (or "Success" when none did, 200 children on), its RLIMIT_NPROC, and
 * the tasks of its user at that refusal and before the first fork. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Processes and threads of this user, as RLIMIT_NPROC counts them. */
static long tasks_of_user(void)
{
    long tasks = 0;
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc && (entry = readdir(proc))) {
        char path[300];
        struct stat owner;
        if (!isdigit((unsigned char)entry->d_name[0]))
            continue;
        snprintf(path, sizeof path, "/proc/%s", entry->d_name);
        if (stat(path, &owner) != 0 || owner.st_uid != getuid())
            continue;
        snprintf(path, sizeof path, "/proc/%s/status", entry->d_name);
        FILE *status = fopen(path, "r");
        char line[128];
        while (status && fgets(line, sizeof line, status)) {
            long threads;
            if (sscanf(line, "Threads: %ld", &threads) == 1)
                tasks += threads;
        }
        if (status)
            fclose(status);
    }
    if (proc)
        closedir(proc);
    return tasks;
}

int main(void)
{
    struct timespec tick = {0, 5 * 1000 * 1000};
    long last = -1;
    /* Unchanged for 40 looks 5 ms apart. */
    for (int same = 0; same < 40; same++) {
        long now = tasks_of_user();
        if (now != last)
            same = 0;
        last = now;
        nanosleep(&tick, NULL);
    }
    struct rlimit limit;
    getrlimit(RLIMIT_NPROC, &limit);
    /* A limit far off is as good as none: stop there. */
    int made = 0, refusal = 0;
    while (made < 200) {
        pid_t child = fork();
        if (child < 0) {
            refusal = errno;
            break;
        }
        if (child == 0) {
            setsid();
            sleep(60);
            _exit(0);
        }
        made++;
    }
    long at_refusal = tasks_of_user();
    printf("forked %d children before %s: %ld tasks of the user, limit %ld, %ld before\n", made,
           refusal == EAGAIN ? "EAGAIN" : strerror(refusal), at_refusal, (long)limit.rlim_cur, last);
    return 0;
}

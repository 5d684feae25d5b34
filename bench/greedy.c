/* Takes as much as one run lets it: as many processes as it can (up to 64), memory in all of
 * them together (each touches up to 1 GiB, 8 MiB at a time), and disk in its working
 * directory (1 MiB files until a write fails), then prints what it got. bench/hostile_take.sh
 * grades it to measure what a hostile run can still take. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STEP (8L << 20)

static void hog(int report) {
    for (long got = 0; got < (1L << 30); got += STEP) {
        char *block = malloc(STEP);
        if (block == NULL)
            break;
        memset(block, 1, STEP);
        if (write(report, "x", 1) != 1)
            break;
    }
    pause();
}

int main(void) {
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    int processes = 1;
    for (int i = 0; i < 63; i++) {
        pid_t child = fork();
        if (child == 0) {
            close(fds[0]);
            hog(fds[1]);
            _exit(0);
        }
        if (child < 0)
            break;
        processes++;
    }
    close(fds[1]);
    /* Count what the children report for half a second. */
    long steps = 0;
    char buffer[256];
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        ssize_t n = read(fds[0], buffer, sizeof buffer);
        if (n <= 0)
            break;
        steps += n;
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 < 500);
    signal(SIGXFSZ, SIG_IGN);
    static char mib[1 << 20];
    long disk = 0;
    for (int file = 0; file < 4096; file++) {
        char name[32];
        snprintf(name, sizeof name, "fill%d", file);
        FILE *out = fopen(name, "w");
        if (out == NULL)
            break;
        size_t wrote = fwrite(mib, 1, sizeof mib, out);
        int closed = fclose(out);
        disk += (long)wrote;
        if (wrote < sizeof mib || closed != 0)
            break;
    }
    printf("processes: %d\nmemory: %ld MiB\ndisk: %ld MiB\n", processes, steps * 8, disk >> 20);
    fflush(stdout);
    signal(SIGTERM, SIG_IGN);
    kill(0, SIGTERM);
    return 0;
}

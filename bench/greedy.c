/* Takes as much as one run lets it: as many processes as it can (up to 64), memory held by
 * all of them at once (each touches up to 1 GiB, 8 MiB at a time; a child the kernel killed
 * holds nothing), and disk in its working directory (1 MiB files until a write fails, for a
 * second at most), then
 * prints what it got. bench/hostile_take.sh
 * grades it to measure what a hostile run can still take. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#define STEP (8L << 20)

/* Touches memory, writing its number to `report` for every step it holds. */
static void hog(int report, unsigned char number) {
    for (long got = 0; got < (1L << 30); got += STEP) {
        char *block = malloc(STEP);
        if (block == NULL)
            break;
        memset(block, 1, STEP);
        if (write(report, &number, 1) != 1)
            break;
    }
    pause();
}

int main(void) {
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    pid_t children[63];
    int processes = 1;
    for (int i = 0; i < 63; i++) {
        pid_t child = fork();
        if (child == 0) {
            close(fds[0]);
            hog(fds[1], (unsigned char)i);
            _exit(0);
        }
        if (child < 0)
            break;
        children[processes - 1] = child;
        processes++;
    }
    close(fds[1]);
    /* Count what the children report for half a second. */
    fcntl(fds[0], F_SETFL, O_NONBLOCK);
    long steps[63] = {0};
    unsigned char buffer[256];
    for (int tick = 0; tick < 50; tick++) {
        ssize_t n;
        while ((n = read(fds[0], buffer, sizeof buffer)) > 0)
            for (ssize_t i = 0; i < n; i++)
                steps[buffer[i]]++;
        usleep(10000);
    }
    long held = 0;
    for (int i = 0; i < processes - 1; i++)
        if (waitpid(children[i], NULL, WNOHANG) == 0)
            held += steps[i];
    signal(SIGXFSZ, SIG_IGN);
    static char mib[1 << 20];
    long disk = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int file = 0; file < 4096; file++) {
        /* A second of writing at most, to answer before the wall-time limit. */
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec + (now.tv_nsec - start.tv_nsec) / 1e9 > 1.0)
            break;
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
    printf("processes: %d\nmemory: %ld MiB\ndisk: %ld MiB\n", processes, held * 8, disk >> 20);
    fflush(stdout);
    signal(SIGTERM, SIG_IGN);
    kill(0, SIGTERM);
    return 0;
}

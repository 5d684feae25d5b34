/* Says when it ran, or takes its time: with "hidden" on stdin it sleeps 1200 ms and prints
 * "slept"; with anything else it prints the CLOCK_MONOTONIC time it started at, in
 * milliseconds, which a test reads from the diff of each case the student sees. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    char word[16] = "";
    if (scanf("%15s", word) == 1 && strcmp(word, "hidden") == 0) {
        struct timespec pause = {1, 200000000L};
        nanosleep(&pause, NULL);
        puts("slept");
        return 0;
    }
    printf("%lld\n", (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
    return 0;
}

/* A Gomocup engine whose answer to ABOUT names the time, as some engines name their
 * build: it differs from run to run. It plays the first empty cell, row by row. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void)
{
    char line[256];
    int taken[15][15] = {{0}}, x, y;
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "ABOUT", 5) == 0) {
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            printf("name=\"clock %ld.%09ld\", version=\"1\"\n", (long)now.tv_sec, now.tv_nsec);
        } else if (strncmp(line, "START", 5) == 0) {
            printf("OK\n");
        } else if (strncmp(line, "BEGIN", 5) == 0 || sscanf(line, "TURN %d,%d", &x, &y) == 2) {
            if (line[0] == 'T' && x >= 0 && x < 15 && y >= 0 && y < 15)
                taken[y][x] = 1;
            for (int cell = 0; cell < 225; cell++)
                if (!taken[cell / 15][cell % 15]) {
                    taken[cell / 15][cell % 15] = 1;
                    printf("%d,%d\n", cell % 15, cell / 15);
                    break;
                }
        } else if (strncmp(line, "END", 3) == 0) {
            return 0;
        }
        fflush(stdout);
    }
    return 0;
}

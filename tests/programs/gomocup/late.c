/* A Gomocup engine that answers START with OK, plays its first move along row 0 at once,
 * then sleeps 3 s before each next one: past a 1 s clock. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    char line[256];
    int moves = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "START", 5) == 0) {
            printf("OK\n");
        } else if (strncmp(line, "BEGIN", 5) == 0 || strncmp(line, "TURN", 4) == 0) {
            if (moves > 0)
                sleep(3);
            printf("%d,0\n", moves++);
        } else if (strncmp(line, "END", 3) == 0) {
            return 0;
        }
        fflush(stdout);
    }
    return 0;
}

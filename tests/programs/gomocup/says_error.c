/* A Gomocup engine that plays only on 20x20 boards, as many Gomocup engines do: it
 * answers START 15 with ERROR, not OK, then waits for its input to end. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "START", 5) == 0) {
            printf("ERROR only 20x20 boards\n");
            fflush(stdout);
        }
    }
    return 0;
}

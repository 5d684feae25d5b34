/* A Gomocup engine that answers START with OK and every move request (BEGIN, TURN x,y)
 * with the centre, 7,7: its second move is on its own stone, or its first on the
 * opponent's. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "START", 5) == 0)
            printf("OK\n");
        else if (strncmp(line, "BEGIN", 5) == 0 || strncmp(line, "TURN", 4) == 0)
            printf("7,7\n");
        else if (strncmp(line, "END", 3) == 0)
            return 0;
        fflush(stdout);
    }
    return 0;
}

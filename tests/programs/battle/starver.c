/* Starves its opponent: fifteen children, each in a session of its own, spin for ever
 * from its first move on, while it plays the first empty cell from row 0, column 0 (it
 * never blocks anything). On a machine with a core or two, a player that thinks while
 * they spin gets a small share of the CPU. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    char me;
    int taken[225] = {0}, row, col, next = 0;
    if (scanf(" %c", &me) != 1)
        return 0;
    if (me == 'O') {
        if (scanf("%d %d", &row, &col) != 2)
            return 0;
        taken[row * 15 + col] = 1;
    }
    for (int child = 0; child < 15; child++)
        if (fork() == 0) {
            setsid();
            for (;;)
                ;
        }
    for (;;) {
        while (next < 225 && taken[next])
            next++;
        printf("%d %d\n", next / 15, next % 15);
        fflush(stdout);
        taken[next] = 1;
        if (scanf("%d %d", &row, &col) != 2)
            return 0;
        taken[row * 15 + col] = 1;
    }
}

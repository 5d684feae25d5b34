/* Plays its first two moves at once (on row 14 from column 0), then sleeps 4 s before
 * its third: past its clock, and past the time a program has to stop once the game is
 * over. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    char me;
    int r, c, moves = 0;
    if (scanf(" %c", &me) != 1)
        return 0;
    if (me == 'O' && scanf("%d %d", &r, &c) != 2)
        return 0;
    for (;;) {
        if (++moves == 3)
            sleep(4);
        printf("14 %d\n", moves - 1);
        fflush(stdout);
        if (scanf("%d %d", &r, &c) != 2)
            return 0;
    }
}

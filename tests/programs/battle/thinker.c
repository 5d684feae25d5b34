/* Thinks: spends 200 ms of CPU time on each move (a fifth of the move clock), then plays
 * the first empty cell of row 7 from column 0: five in a row in five moves, unless
 * blocked. */
#include <stdio.h>
#include <time.h>

static void think(void)
{
    clock_t start = clock();
    volatile unsigned long work = 0;
    while (clock() - start < CLOCKS_PER_SEC / 5)
        work++;
}

int main(void)
{
    char me;
    int taken[15] = {0}, row, col, next = 0;
    if (scanf(" %c", &me) != 1)
        return 0;
    if (me == 'O' && scanf("%d %d", &row, &col) != 2)
        return 0;
    for (;;) {
        think();
        while (next < 15 && taken[next])
            next++;
        printf("7 %d\n", next);
        fflush(stdout);
        taken[next] = 1;
        if (scanf("%d %d", &row, &col) != 2)
            return 0;
        if (row == 7)
            taken[col] = 1;
    }
}

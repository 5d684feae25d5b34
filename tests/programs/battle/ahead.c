/* Moves out of turn: it writes its next move before it reads the opponent's (as X, its
 * first two moves at once), the first cell of the board, row by row, that it has not seen
 * taken. Its lines are always one move ahead of the game. */
#include <stdio.h>

static int taken[225];

static void move(void)
{
    int cell = 0;
    while (cell < 224 && taken[cell])
        cell++;
    taken[cell] = 1;
    printf("%d %d\n", cell / 15, cell % 15);
    fflush(stdout);
}

int main(void)
{
    char me;
    int r, c;
    if (scanf(" %c", &me) != 1)
        return 0;
    move();
    if (me == 'X')
        move();
    while (scanf("%d %d", &r, &c) == 2) {
        if (r >= 0 && r < 15 && c >= 0 && c < 15)
            taken[r * 15 + c] = 1;
        move();
    }
    return 0;
}

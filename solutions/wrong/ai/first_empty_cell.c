/* wrong: think() plays the first empty cell, row by row: no priority of the lesson's (it takes a five only by chance, never blocks a four, extends a three only along row order) */
#include <stdio.h>

char board[15][15];

int main(void)
{
    char me, turn = 'X';
    int r, c;

    if (scanf(" %c", &me) != 1)
        return 0;
    for (;;) {
        if (turn == me) {
            for (r = 0; r < 15 * 15 && board[r / 15][r % 15]; r++)
                continue;
            if (r == 15 * 15)
                return 0;
            c = r % 15;
            r /= 15;
            printf("%d %d\n", r, c);
            fflush(stdout);
        } else if (scanf("%d %d", &r, &c) != 2) {
            return 0;
        }
        board[r][c] = turn;
        turn = turn == 'X' ? 'O' : 'X';
    }
}

/* wrong: think() plays the first empty cell of a fixed spiral out from the centre (7 7, 7 8, 8 8, 8 7, 8 6, ...): no priority of the lesson's, it never blocks a four */
#include <stdio.h>

#define SIZE 15

char board[SIZE][SIZE];

/* Walks the square spiral from the centre, right, down, left, up, one step longer every
 * second turn, and stops at the first empty cell on the board. */
int think(int *r, int *c)
{
    static const int steps[4][2] = { {0, 1}, {1, 0}, {0, -1}, {-1, 0} };
    int i = SIZE / 2, j = SIZE / 2, length = 1, turn = 0, seen = 0;

    while (seen < SIZE * SIZE) {
        for (int twice = 0; twice < 2; twice++, turn = (turn + 1) % 4)
            for (int k = 0; k < length; k++) {
                if (i >= 0 && i < SIZE && j >= 0 && j < SIZE) {
                    seen++;
                    if (board[i][j] == '.') {
                        *r = i;
                        *c = j;
                        return 1;
                    }
                }
                i += steps[turn][0];
                j += steps[turn][1];
            }
        length++;
    }
    return 0;
}

int main(void)
{
    char me, turn = 'X';
    int r, c;

    if (scanf(" %c", &me) != 1)
        return 0;
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            board[i][j] = '.';
    for (;;) {
        if (turn == me) {
            if (!think(&r, &c))
                return 0;
            printf("%d %d\n", r, c);
            fflush(stdout);
        } else if (scanf("%d %d", &r, &c) != 2 || r < 0 || r >= SIZE || c < 0 || c >= SIZE) {
            return 0;
        }
        board[r][c] = turn;
        turn = turn == 'X' ? 'O' : 'X';
    }
}

/* wrong: think() answers the opponent's move with its mirror image through the centre (14 - r, 14 - c), the first empty cell when that is taken: no priority of the lesson's, it never blocks a four */
#include <stdio.h>

#define SIZE 15

char board[SIZE][SIZE];

int think(int last_r, int last_c, int *r, int *c)
{
    if (last_r < 0) {
        last_r = SIZE / 2;      /* the first move of the game: the centre */
        last_c = SIZE / 2;
    }
    *r = SIZE - 1 - last_r;
    *c = SIZE - 1 - last_c;
    if (board[*r][*c] == '.')
        return 1;
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.') {
                *r = i;
                *c = j;
                return 1;
            }
    return 0;
}

int main(void)
{
    char me, turn = 'X';
    int r = -1, c = -1;

    if (scanf(" %c", &me) != 1)
        return 0;
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            board[i][j] = '.';
    for (;;) {
        if (turn == me) {
            if (!think(r, c, &r, &c))
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

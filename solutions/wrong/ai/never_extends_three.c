/* wrong: think() makes five and blocks a four, then mirrors the opponent's move through the centre: it has no third priority, a three of its own never becomes four */
#include <stdio.h>

#define SIZE 15

char board[SIZE][SIZE];

/* Would a stone of `who` on the empty cell (r, c) make five? */
int makes_five(int r, int c, char who)
{
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

    for (int d = 0; d < 4; d++) {
        int n = 1;
        for (int sign = -1; sign <= 1; sign += 2) {
            int i = r + sign * dirs[d][0], j = c + sign * dirs[d][1];
            while (i >= 0 && i < SIZE && j >= 0 && j < SIZE && board[i][j] == who) {
                n++;
                i += sign * dirs[d][0];
                j += sign * dirs[d][1];
            }
        }
        if (n >= 5)
            return 1;
    }
    return 0;
}

/* The first empty cell where `who` would make five. */
int five_for(char who, int *r, int *c)
{
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.' && makes_five(i, j, who)) {
                *r = i;
                *c = j;
                return 1;
            }
    return 0;
}

int think(char me, int last_r, int last_c, int *r, int *c)
{
    if (five_for(me, r, c) || five_for(me == 'X' ? 'O' : 'X', r, c))
        return 1;
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
            if (!think(me, r, c, &r, &c))
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

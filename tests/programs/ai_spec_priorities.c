/* A player that follows SPEC.md's priorities for exercise 7 as they are stated, and
 * nothing more: make five; otherwise block the opponent's four; otherwise extend its own
 * three (an unbroken run of three) to four; otherwise any move: the first empty cell.
 * Every pass/fail case of the ai exercise must accept it; the bonus games, which ask for
 * strength, need not. */
#include <stdio.h>

#define SIZE 15

static char board[SIZE][SIZE];
static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

static int on_board(int r, int c)
{
    return r >= 0 && r < SIZE && c >= 0 && c < SIZE;
}

/* The stones of `who` in a row from (r, c), not counting it, towards (dr, dc). */
static int run(int r, int c, int dr, int dc, char who)
{
    int n = 0;

    for (r += dr, c += dc; on_board(r, c) && board[r][c] == who; r += dr, c += dc)
        n++;
    return n;
}

static int makes_five(int r, int c, char who)
{
    for (int d = 0; d < 4; d++)
        if (1 + run(r, c, dirs[d][0], dirs[d][1], who) + run(r, c, -dirs[d][0], -dirs[d][1], who) >= 5)
            return 1;
    return 0;
}

/* Next to an end of an unbroken three of `who`, in its line. */
static int extends_three(int r, int c, char who)
{
    for (int d = 0; d < 4; d++) {
        int ahead = run(r, c, dirs[d][0], dirs[d][1], who);
        int behind = run(r, c, -dirs[d][0], -dirs[d][1], who);
        if ((ahead == 3 && behind == 0) || (ahead == 0 && behind == 3))
            return 1;
    }
    return 0;
}

static int think(char me, int *r, int *c)
{
    char opp = me == 'X' ? 'O' : 'X';

    for (int priority = 0; priority < 4; priority++)
        for (int i = 0; i < SIZE; i++)
            for (int j = 0; j < SIZE; j++) {
                if (board[i][j] != '.')
                    continue;
                if ((priority == 0 && makes_five(i, j, me)) || (priority == 1 && makes_five(i, j, opp))
                    || (priority == 2 && extends_three(i, j, me)) || priority == 3) {
                    *r = i;
                    *c = j;
                    return 1;
                }
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
            if (!think(me, &r, &c))
                return 0;
            printf("%d %d\n", r, c);
            fflush(stdout);
        } else if (scanf("%d %d", &r, &c) != 2 || !on_board(r, c)) {
            return 0;
        }
        board[r][c] = turn;
        turn = turn == 'X' ? 'O' : 'X';
    }
}

/* wrong: think() plays a random empty cell, as the lesson's first sketch does (srand(time(NULL)), rand() % empty_count): no priority of the lesson's, it never blocks a four */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SIZE 15

char board[SIZE][SIZE];

/* The lesson's random move: count the empty cells, pick the idx-th. */
int think(int *r, int *c)
{
    int empty_count = 0;

    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            empty_count += board[i][j] == '.';
    if (empty_count == 0)
        return 0;
    int idx = rand() % empty_count;
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.' && idx-- == 0) {
                *r = i;
                *c = j;
                return 1;
            }
    return 0;
}

int main(void)
{
    char me, turn = 'X';
    int r, c;

    srand((unsigned)time(NULL));
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

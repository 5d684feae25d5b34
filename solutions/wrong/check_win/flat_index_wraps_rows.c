/* wrong: the board is one flat array board[r * SIZE + c], bounds-checked as a single index: a line runs on from the end of one row to the start of the next */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE * SIZE];   /* cell (r, c) is board[r * SIZE + c] */

/*
 * Is there a line of five of `player` starting at (r, c) and going in
 * direction (dr, dc)? Cell k of the line is (r + k*dr, c + k*dc).
 */
int check_dir(int r, int c, int dr, int dc, char player)
{
    int count = 0;

    for (int k = 0; k < 5; k++) {          /* k = 0..4: five cells */
        int i = (r + k * dr) * SIZE + (c + k * dc);

        int inside = i >= 0 && i < SIZE * SIZE;
        if (!inside || board[i] != player)
            break;                          /* off the board or the line is broken */
        count++;
    }
    return count >= 5;
}

int check_win(char player)
{
    /* right, down, down-right, down-left. The other four directions are the
     * same lines read from their other end, and every cell is tried as a start. */
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

    for (int r = 0; r < SIZE; r++) {
        for (int c = 0; c < SIZE; c++) {
            if (board[r * SIZE + c] != player)
                continue;                   /* a line can only start on our own stone */
            for (int d = 0; d < 4; d++)
                if (check_dir(r, c, dirs[d][0], dirs[d][1], player))
                    return 1;
        }
    }
    return 0;
}

int main(void)
{
    char line[SIZE + 1];
    for (int r = 0; r < SIZE; r++) {
        if (scanf("%15s", line) != 1)
            break;                          /* short input: the rest stays empty */
        memcpy(&board[r * SIZE], line, SIZE);
    }

    if (check_win('B'))
        printf("black\n");
    else if (check_win('W'))
        printf("white\n");
    else
        printf("none\n");
    return 0;
}

/* wrong: check_dir does not stop (break) at a cell that is not the player's: it counts every stone of the player up to the edge */
#include <stdio.h>

#define SIZE 15

/* One extra column per row: scanf("%s") stores a '\0' after the 15 characters. */
static char board[SIZE][SIZE + 1];

/*
 * Is there a line of five of `player` starting at (r, c) and going in
 * direction (dr, dc)? Cell k of the line is (r + k*dr, c + k*dc).
 */
int check_dir(int r, int c, int dr, int dc, char player)
{
    int count = 0;

    for (int k = 0; k < SIZE; k++) {
        int nr = r + k * dr;
        int nc = c + k * dc;

        /* Bounds first: the && stops before board[nr][nc] is read. */
        int inside = nr >= 0 && nr < SIZE && nc >= 0 && nc < SIZE;
        if (!inside)
            break;
        if (board[nr][nc] == player)
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
            if (board[r][c] != player)
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
    for (int r = 0; r < SIZE; r++)
        if (scanf("%15s", board[r]) != 1)
            break;                          /* short input: the rest stays empty */

    if (check_win('B'))
        printf("black\n");
    else if (check_win('W'))
        printf("white\n");
    else
        printf("none\n");
    return 0;
}

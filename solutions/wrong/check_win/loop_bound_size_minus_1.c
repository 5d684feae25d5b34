/* wrong: off-by-one loop bounds r < SIZE - 1, c < SIZE - 1: the last row and column are never a start */
#include <stdio.h>

#define SIZE 15

static char board[SIZE][SIZE + 1];

int check_dir(int r, int c, int dr, int dc, char player)
{
    int count = 0;

    for (int k = 0; k < 5; k++) {
        int nr = r + k * dr;
        int nc = c + k * dc;

        int inside = nr >= 0 && nr < SIZE && nc >= 0 && nc < SIZE;
        if (!inside || board[nr][nc] != player)
            break;
        count++;
    }
    return count >= 5;
}

int check_win(char player)
{
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

    for (int r = 0; r < SIZE - 1; r++) {
        for (int c = 0; c < SIZE - 1; c++) {
            if (board[r][c] != player)
                continue;
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
            break;

    if (check_win('B'))
        printf("black\n");
    else if (check_win('W'))
        printf("white\n");
    else
        printf("none\n");
    return 0;
}

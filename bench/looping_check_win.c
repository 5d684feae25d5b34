/* check_win with the lesson's most common bug: the board is read with
   `while (scanf(...))`, and scanf's EOF (-1) is true, so it never stops. */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE + 1];

int check_dir(int r, int c, int dr, int dc, char player)
{
    int count = 0;
    for (int k = 0; k < 5; k++) {
        int nr = r + k * dr, nc = c + k * dc;
        if (nr < 0 || nr >= SIZE || nc < 0 || nc >= SIZE || board[nr][nc] != player)
            break;
        count++;
    }
    return count >= 5;
}

int check_win(char player)
{
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };
    for (int r = 0; r < SIZE; r++)
        for (int c = 0; c < SIZE; c++)
            for (int d = 0; d < 4; d++)
                if (board[r][c] == player && check_dir(r, c, dirs[d][0], dirs[d][1], player))
                    return 1;
    return 0;
}

int main(void)
{
    char row[64];
    int r = 0;
    while (scanf("%63s", row)) {
        if (r < SIZE)
            memcpy(board[r], row, SIZE);
        r++;
    }
    printf("%s\n", check_win('B') ? "black" : check_win('W') ? "white" : "none");
    return 0;
}

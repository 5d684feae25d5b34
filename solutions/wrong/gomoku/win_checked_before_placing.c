/* wrong: the win is checked before the stone is placed, so a five is seen one turn late */
#include <stdio.h>
#include <string.h>

#define SIZE 15

char board[SIZE][SIZE];

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
    int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            for (int d = 0; d < 4; d++)
                if (board[i][j] == player && check_dir(i, j, dirs[d][0], dirs[d][1], player))
                    return 1;
    return 0;
}

int board_full(void)
{
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.')
                return 0;
    return 1;
}

int main(void)
{
    int turn = 0, r, c;
    memset(board, '.', sizeof(board));
    while (1) {
        char cur = turn % 2 == 0 ? 'X' : 'O';
        printf("Player %c, enter row col: ", cur);
        if (scanf("%d %d", &r, &c) != 2)
            return 0;
        if (r < 0 || r >= SIZE || c < 0 || c >= SIZE || board[r][c] != '.') {
            printf("Invalid move! Try again.\n");
            continue;
        }
        if (check_win(cur)) {
            printf("Player %c wins!\n", cur);
            break;
        }
        board[r][c] = cur;
        if (board_full()) {
            printf("Draw!\n");
            break;
        }
        turn++;
    }
    return 0;
}

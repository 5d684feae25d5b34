/* wrong: main never calls check_win after placing a stone: a five goes unannounced and the game goes on */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

void init_board(void)
{
    memset(board, '.', sizeof(board));
}

int onboard(int r, int c)
{
    return r >= 0 && r < SIZE && c >= 0 && c < SIZE;
}

/* only call this for a cell that is on the board */
int empty(int r, int c)
{
    return board[r][c] == '.';
}

int check_dir(int r, int c, int dr, int dc, char player)
{
    int count = 0;

    for (int k = 0; k < 5; k++) {
        int nr = r + k * dr;
        int nc = c + k * dc;

        if (!onboard(nr, nc) || board[nr][nc] != player)
            break;
        count++;
    }
    return count >= 5;
}

int check_win(char player)
{
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

    for (int r = 0; r < SIZE; r++)
        for (int c = 0; c < SIZE; c++) {
            if (board[r][c] != player)
                continue;
            for (int d = 0; d < 4; d++)
                if (check_dir(r, c, dirs[d][0], dirs[d][1], player))
                    return 1;
        }
    return 0;
}

/* Full means no '.' left: stop at the first empty cell found. */
int board_full(void)
{
    for (int r = 0; r < SIZE; r++)
        for (int c = 0; c < SIZE; c++)
            if (board[r][c] == '.')
                return 0;
    return 1;
}

int main(void)
{
    int turn = 0;                 /* counts legal moves only */

    init_board();
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        int r, c;

        printf("Player %c, enter row col: ", cur);
        if (scanf("%d %d", &r, &c) != 2)
            return 0;             /* end of input (or not a number): stop */

        /* onboard first: empty() must never see an off-board cell */
        if (!onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;             /* same player again: turn is unchanged */
        }

        board[r][c] = cur;

        if (board_full()) {
            printf("Draw!\n");
            break;
        }
        turn++;                   /* only now is it the other player's turn */
    }
    return 0;
}

/*
 * Exercise 5: move_errors -- why a move is illegal (after-class exercise 2)
 * 练习 5：说明非法落子的原因（课后练习 2）
 *
 * The game below is exercise 3, and it works, but it answers every illegal
 * move with the same "Invalid move! Try again.". Tell the player why instead:
 * 下面是练习 3 的完整对弈，已经可以运行，但它对所有非法落子都只说
 * "Invalid move! Try again."。改成告诉玩家原因：
 *
 *   - off the board (row or column not in 0..14):
 *     在棋盘外（行或列不在 0..14 之内）：
 *         Out of board! Row and col must be 0-14.
 *   - on a cell that already holds a stone, with the move's row and column:
 *     落在已有棋子的格子上，带上这一步的行和列：
 *         Position (7,7) is already occupied!
 *   - a move off the board is only ever "Out of board!"; after either message
 *     the same player moves again.
 *     棋盘外的落子只会是 "Out of board!"；两种提示之后都由同一个玩家重下。
 *
 * Input:  the moves, one pair of integers "r c" each, X first, then O, ...
 * Everything else (prompts, win and draw lines) stays exactly as in exercise 3.
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

void init_board(void)  { memset(board, '.', sizeof(board)); }

int onboard(int r, int c) { return r >= 0 && r < SIZE && c >= 0 && c < SIZE; }
/* only for a cell on the board: board[r][c] must exist */
int empty(int r, int c)   { return board[r][c] == '.'; }

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
    init_board();

    int turn = 0;
    while (1)
    {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        printf("Player %c, enter row col: ", cur);

        int r, c;
        if (scanf("%d %d", &r, &c) != 2)   /* given: stop at the end of the input */
            break;

        /* TODO: split this test in two, each with its own message and its own
         *       continue (the same player moves again, turn++ stays below):
         *       1. if (!onboard(r, c)): "Out of board! Row and col must be 0-14."
         *          -- print the 14 as SIZE - 1, the largest index;
         *       2. if (!empty(r, c)): "Position (r,c) is already occupied!"
         *          with the move's r and c.
         *       onboard first: empty(r, c) reads board[r][c], which does not
         *       exist for a move off the board. */
        /* TODO：把这个判断拆成两个，各有自己的提示和自己的 continue
         *       （同一个玩家重下，turn++ 仍然留在下面）：
         *       1. if (!onboard(r, c))："Out of board! Row and col must be 0-14."
         *          —— 14 用 SIZE - 1（最大的下标）打印；
         *       2. if (!empty(r, c))："Position (r,c) is already occupied!"，
         *          填入这一步的 r 和 c。
         *       先判断 onboard：empty(r, c) 要读 board[r][c]，而棋盘外的落子没有这个格子。 */
        if (!onboard(r, c) || !empty(r, c))
        {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;

        if (check_win(cur))
        {
            printf("Player %c wins!\n", cur);
            break;
        }

        if (board_full())
        {
            printf("Draw!\n");
            break;
        }

        turn++;
    }

    return 0;
}

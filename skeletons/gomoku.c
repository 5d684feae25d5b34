/*
 * Exercise 3: gomoku -- the whole game
 * 练习 3：完整对弈
 *
 * Input:  the moves, one pair of integers "r c" each (row, then column),
 *         X moves first, then O, then X, ...
 * Output:
 *   - before every move:   "Player X, enter row col: "   (no newline; O for O)
 *   - an illegal move (off the board, or on a cell that is not empty):
 *                          "Invalid move! Try again." + newline,
 *                          and the same player moves again
 *   - five or more in a row: "Player X wins!" + newline, and the game ends
 *   - a full board and no five: "Draw!" + newline, and the game ends
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

void init_board(void)  { memset(board, '.', sizeof(board)); }

int onboard(int r, int c) { return r >= 0 && r < SIZE && c >= 0 && c < SIZE; }
int empty(int r, int c)   { return board[r][c] == '.'; }

int check_dir(int r, int c, int dr, int dc, char player)
{
    /* TODO: the same as in exercise 2 (check_win.c): five cells from (r, c)
     *       in direction (dr, dc), bounds check before access, count >= 5. */
    /* TODO：和练习 2（check_win.c）一样：从 (r, c) 沿方向 (dr, dc) 检查 5 个格子，
     *       先做边界检查再访问，count >= 5。 */
    (void)r; (void)c; (void)dr; (void)dc; (void)player;   /* TODO-remove */
    return 0;
}

int check_win(char player)
{
    /* TODO: the same as in exercise 2: every cell, the four directions of
     *       the direction array. */
    /* TODO：和练习 2 一样：遍历每个格子，尝试方向数组里的 4 个方向。 */
    (void)player;   /* TODO-remove */
    return 0;
}

int board_full(void)
{
    /* TODO: return 0 as soon as you find a '.' cell; return 1 if there is none. */
    /* TODO：一找到 '.' 就立即 return 0；一个都没有才 return 1。 */
    return 0;
}

int main(void)
{
    init_board();

    int turn = 0;
    while (1)
    {
        /* TODO: turn % 2 picks the player: 'X' when it is 0, 'O' when it is 1.
         *       Print the prompt for that player (no newline). */
        /* TODO：用 turn % 2 决定当前玩家：为 0 是 'X'，为 1 是 'O'。打印该玩家的提示（不换行）。 */

        int r, c;
        if (scanf("%d %d", &r, &c) != 2)   /* given: stop at the end of the input */
            break;

        /* TODO: if the move is off the board or the cell is not empty, print
         *       the invalid-move message and let the same player move again
         *       (continue). Call onboard before empty. */
        /* TODO：如果落子在棋盘外或该位置不是空的，打印非法落子提示，让同一个玩家重下（continue）。
         *       先调用 onboard，再调用 empty。 */

        /* TODO: place the stone of the current player at (r, c). */
        /* TODO：在 (r, c) 放下当前玩家的棋子。 */

        /* TODO: if check_win says the current player has five, print the
         *       winner and break out of the loop. */
        /* TODO：如果 check_win 判定当前玩家五连，打印胜者并 break 跳出循环。 */

        /* TODO: if board_full, print the draw message and break. */
        /* TODO：如果 board_full 为真，打印平局信息并 break。 */

        /* TODO: turn++ -- only here, after the move has been accepted. */
        /* TODO：turn++ —— 只能放在这里，也就是落子被接受之后。 */
        (void)turn;   /* TODO-remove */
    }

    return 0;
}

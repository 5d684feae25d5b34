/*
 * Exercise 2: check_win -- who has five in a row?
 * 练习 2：判断胜负
 *
 * Input:  15 lines of 15 characters each: 'B' black stone, 'W' white stone,
 *         '.' empty cell.
 * Output: one line: "black" if black has five or more in a row, otherwise
 *         "white" if white has, otherwise "none".
 *         A line can be horizontal, vertical or on either diagonal; six or
 *         more in a row also wins.
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

/* One extra column per row for the '\0' that scanf("%s") stores. */
char board[SIZE][SIZE + 1];

/*
 * Return 1 if the five cells starting at (r, c) and stepping in direction
 * (dr, dc) all hold `player`, else 0.
 */
int check_dir(int r, int c, int dr, int dc, char player)
{
    /* TODO: loop k over the five cells of the line (k < 5, not k <= 5);
     *       cell k is nr = r + k*dr, nc = c + k*dc. */
    /* TODO：用 k 遍历这条线上的 5 个格子（k < 5，不是 k <= 5）；
     *       第 k 个格子是 nr = r + k*dr，nc = c + k*dc。 */

    /* TODO: bounds check before access: if (nr, nc) is off the board, the
     *       line cannot be five; only then may you read board[nr][nc]. */
    /* TODO：先做边界检查再访问：(nr, nc) 出界就不可能五连；确认在棋盘内之后才能读 board[nr][nc]。 */

    /* TODO: count the player's stones; a different cell breaks the line.
     *       Return whether count >= 5. */
    /* TODO：统计本方棋子的个数 count，遇到不同的格子连线就断了；返回 count >= 5 的结果。 */

    (void)r; (void)c; (void)dr; (void)dc; (void)player;   /* TODO-remove */
    return 0;
}

/* Return 1 if `player` has five in a row anywhere on the board, else 0. */
int check_win(char player)
{
    int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

    /* TODO: visit every cell (i, j) of the board, from row 0 to row SIZE-1
     *       and column 0 to column SIZE-1. */
    /* TODO：遍历棋盘的每个格子 (i, j)，行从 0 到 SIZE-1，列从 0 到 SIZE-1。 */

    /* TODO: skip (continue) cells that are not the player's; from the others,
     *       call check_dir once for each of the four directions in the
     *       direction array dirs. Any hit: return 1. */
    /* TODO：不是本方棋子的格子直接 continue；其余格子对方向数组 dirs 中的
     *       4 个方向各调用一次 check_dir，只要有一个成功就 return 1。 */

    (void)dirs; (void)player;   /* TODO-remove */
    return 0;
}

int main(void)
{
    /* read the 15 rows of the board (given) */
    for (int i = 0; i < SIZE; i++)
        if (scanf("%15s", board[i]) != 1)
            break;

    /* black is checked first (given) */
    if (check_win('B'))
        printf("black\n");
    else if (check_win('W'))
        printf("white\n");
    else
        printf("none\n");

    return 0;
}

/*
 * Exercise 1: print_board -- draw the Gomoku board
 * 练习 1：画棋盘
 *
 * Input:  none.
 * Output: 16 lines.
 *   - a header: three spaces, then every column number 0..14 printed with "%2d "
 *   - 15 rows:  the row number printed with "%2d ", then every cell with " %c "
 * Trailing spaces at the end of a line do not matter.
 *
 *        0  1  2  3 ...
 *     0  .  .  .  . ...
 *     1  .  .  .  . ...
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

void init_board(void)
{
    /* TODO: set every cell of board to '.' in one call of memset,
     *       with sizeof(board) as the number of bytes. */
    /* TODO：用一次 memset 把 board 的每个格子都设成 '.'，字节数用 sizeof(board)。 */
}

void print_board(void)
{
    /* TODO: print the header line: three spaces, then each column number
     *       0..SIZE-1 with "%2d ", then a newline. */
    /* TODO：打印列号首行：先三个空格，再用 "%2d " 打印 0 到 SIZE-1 的每个列号，最后换行。 */

    /* TODO: a nested for loop, rows outside, columns inside: each row starts
     *       with its number ("%2d "), prints every cell with " %c ", and ends
     *       with a newline. */
    /* TODO：用二重 for 循环，外层是行、内层是列：每行先用 "%2d " 打印行号，
     *       再用 " %c " 打印每个格子，行末换行。 */
}

int main(void)
{
    init_board();
    print_board();
    return 0;
}

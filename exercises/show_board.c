/*
 * Exercise 4: show_board -- the board after every move (after-class exercise 1)
 * 练习 4：每步落子后显示棋盘（课后练习 1）
 *
 * The game below is exercise 3, and it works. Make it show the board:
 * 下面是练习 3 的完整对弈，已经可以运行。让它显示棋盘：
 *
 *   - after every legal move, right after the stone is placed, print the whole
 *     board exactly as exercise 1 does (the header line, then 15 rows);
 *     每一步合法落子之后、棋子一放上去，就像练习 1 那样打印整个棋盘（列号行加 15 行）；
 *   - if that move wins or fills the board, "Player X wins!" or "Draw!" comes
 *     after the board;
 *     如果这一步赢了或下满了棋盘，"Player X wins!" 或 "Draw!" 打印在棋盘之后；
 *   - an illegal move changes nothing, so it prints no board: only
 *     "Invalid move! Try again.", and the same player moves again.
 *     非法落子什么都没有改变，所以不打印棋盘：只打印 "Invalid move! Try again."，同一个玩家重下。
 *
 * Input:  the moves, one pair of integers "r c" each, X first, then O, ...
 * Everything else (prompts, messages) stays exactly as in exercise 3.
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

void init_board(void)  { memset(board, '.', sizeof(board)); }

void print_board(void)
{
    /* TODO: the print_board of exercise 1 (print_board.c): the header line
     *       (three spaces, then "%2d " for every column), then a nested loop:
     *       each row prints its number with "%2d ", every cell with " %c ",
     *       and a newline. */
    /* TODO：练习 1（print_board.c）里的 print_board：先打印列号行（三个空格，
     *       再用 "%2d " 打印每个列号），然后二重循环：每行先用 "%2d " 打印行号，
     *       再用 " %c " 打印每个格子，最后换行。 */
}

int onboard(int r, int c) { return r >= 0 && r < SIZE && c >= 0 && c < SIZE; }
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

        if (!onboard(r, c) || !empty(r, c))
        {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;
        /* TODO: show the board with print_board(), here: the new stone is on
         *       it, and the win or draw line below comes after it. An illegal
         *       move never gets here (continue above), so it shows no board. */
        /* TODO：在这里调用 print_board() 显示棋盘：新棋子已经在棋盘上，
         *       下面的胜负或平局信息在它之后打印。非法落子到不了这里（上面的 continue），
         *       所以不会打印棋盘。 */

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

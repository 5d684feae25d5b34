/*
 * After-class exercise 3: highlight -- show the winning five
 * 课后练习 3：五连高亮
 *
 * The whole game of exercise 3 is already here and works. Change one thing:
 * when a player wins, print the board (as in exercise 1) just before
 * "Player X wins!", with the five cells of the winning line drawn as [X]
 * (or [O]) instead of " X ". No board is printed at any other time (not
 * during the game, not for a draw).
 *
 *   ...
 *    7  .  .  . [X][X][X][X][X] .  .  .  .  .  .  .
 *   ...
 *   Player X wins!
 *
 * Which five: the first one check_win finds -- rows top to bottom, columns
 * left to right, directions (0,1), (1,0), (1,1), (1,-1). So six in a row
 * shows its first five from that end, and a move that makes two lines
 * shows the line found first.
 *
 * 游戏本身（练习 3）已经写好并且可以运行。只需要改一处：某一方获胜时，在
 * "Player X wins!" 之前打印棋盘（格式同练习 1），获胜的 5 个格子画成 [X]
 * （或 [O]），而不是 " X "。其他任何时候都不打印棋盘（对局中不打印，平局也不打印）。
 * 高亮哪 5 个：check_win 找到的第一组——行从上到下、列从左到右、方向依次为
 * (0,1)、(1,0)、(1,1)、(1,-1)。所以六连只高亮从这一端数起的前 5 个；一步棋同时
 * 连成两条线时，高亮先找到的那一条。
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

/* The five cells of the winning line: win_pos[k][0] is the row of cell k,
 * win_pos[k][1] its column. */
/* 五连的 5 个坐标：win_pos[k][0] 是第 k 个格子的行，win_pos[k][1] 是它的列。 */
int win_pos[5][2];

void init_board(void)  { memset(board, '.', sizeof(board)); }

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

        /* TODO: remember this cell of the line: its row in win_pos[count][0],
         *       its column in win_pos[count][1] (before count++). */
        /* TODO：记下这条线上的这个格子：行存入 win_pos[count][0]，列存入
         *       win_pos[count][1]（在 count++ 之前）。 */

        count++;
    }
    return count >= 5;
}

int check_win(char player)
{
    int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++) {
            if (board[i][j] != player)
                continue;
            for (int d = 0; d < 4; d++)
                if (check_dir(i, j, dirs[d][0], dirs[d][1], player))
                    return 1;
        }
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

/* For now this is print_board of exercise 1. */
/* 目前这就是练习 1 的 print_board。 */
void print_board_highlight(void)
{
    printf("   ");
    for (int j = 0; j < SIZE; j++)
        printf("%2d ", j);
    printf("\n");

    for (int i = 0; i < SIZE; i++) {
        printf("%2d ", i);
        for (int j = 0; j < SIZE; j++) {
            /* TODO: if (i, j) is one of the five cells in win_pos, print it
             *       as "[%c]" (still three characters wide); otherwise as
             *       now, " %c ". */
            /* TODO：如果 (i, j) 是 win_pos 中的 5 个格子之一，就按 "[%c]" 打印
             *       （仍然是三个字符宽）；否则和现在一样打印 " %c "。 */
            printf(" %c ", board[i][j]);
        }
        printf("\n");
    }
}

int main(void)
{
    init_board();

    int turn = 0;
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        printf("Player %c, enter row col: ", cur);

        int r, c;
        if (scanf("%d %d", &r, &c) != 2)   /* stop at the end of the input */
            break;

        if (!onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;

        if (check_win(cur)) {
            /* TODO: print the board with the winning five highlighted
             *       (print_board_highlight) before the win line. */
            /* TODO：在获胜信息之前，打印高亮五连的棋盘（print_board_highlight）。 */
            printf("Player %c wins!\n", cur);
            break;
        }
        if (board_full()) {
            printf("Draw!\n");
            break;
        }
        turn++;
    }

    return 0;
}

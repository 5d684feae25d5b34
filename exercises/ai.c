/*
 * After-class exercise 4: ai -- a computer player with think()
 * 课后练习 4：简单 AI 对手
 *
 * This program is a player: it plays Gomoku against a referee, one line at
 * a time over stdin/stdout. main() below already speaks the protocol:
 *   - the referee's first line is "X" or "O": the stones you play (X first);
 *   - your moves are written as "r c" (and flushed), the opponent's are read
 *     as "r c";
 *   - the referee ends the game by closing your stdin: then main() exits 0.
 * The board, check_dir and check_win are those of the earlier exercises.
 *
 * Write think(): it puts the move for `me` in *r, *c (an empty cell) and
 * returns 1 (0 only if no cell is empty). In this order:
 *   1. make five if you can;
 *   2. else block the opponent's four (the cell where they would make five);
 *   3. else extend your own three to a four;
 *   4. else any move: the best score from evaluate(), or a random one.
 * Each move within 1 s.
 *
 * 这个程序是一个玩家：它通过 stdin/stdout 和裁判程序下五子棋，一次一行。
 * main() 已经实现了通信协议：裁判的第一行是 "X" 或 "O"，即你执的棋子（X 先走）；
 * 你的落子写成 "r c"（并 fflush），对手的落子按 "r c" 读入；裁判关闭你的 stdin
 * 表示对局结束，这时 main() 以 0 退出。棋盘、check_dir 和 check_win 与前面的练习相同。
 *
 * 请实现 think()：把 me 的落子写入 *r、*c（必须是空格子）并返回 1（只有没有空格子时
 * 才返回 0）。优先级依次为：1. 能连五就连五；2. 否则堵住对手的四连（对手下一步能连五
 * 的格子）；3. 否则把自己的三连延长成四连；4. 否则随便下：evaluate() 评分最高的格子，
 * 或者随机一个。每步必须在 1 秒内完成。
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <stdlib.h>   /* rand(), abs() */
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

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

/* How good is the empty cell (r, c) for `player`? The lesson's idea: look
 * along the four directions and count the stones of `player` that a stone
 * there would join; more stones in a row, a higher score. */
/* 空格子 (r, c) 对 player 有多好？课上的思路：沿 4 个方向看，统计在这里落子能连上的
 * player 的棋子；连得越多，分数越高。 */
int evaluate(int r, int c, char player)
{
    /* TODO: score (r, c) for player. */
    /* TODO：给 (r, c) 对 player 打分。 */
    (void)r; (void)c; (void)player;   /* TODO-remove */
    return 0;
}

/* Chooses the move of `me` into *r, *c; returns 0 if no cell is empty. */
/* 为 me 选一步棋，写入 *r、*c；没有空格子时返回 0。 */
int think(int *r, int *c, char me)
{
    /* TODO: the four priorities above. To know whether a cell makes five,
     *       put the stone there, ask check_win, and take it back. */
    /* TODO：按上面的四个优先级选点。想知道某个格子能否连五：先放上棋子，
     *       调用 check_win，再把棋子拿走。 */
    (void)r; (void)c; (void)me;   /* TODO-remove */
    return 0;
}

int main(void)
{
    char me, turn = 'X';

    if (scanf(" %c", &me) != 1 || (me != 'X' && me != 'O'))
        return 0;
    init_board();
    while (1) {
        int r, c;

        if (turn == me) {
            if (!think(&r, &c, me))
                return 0;                   /* the board is full */
            printf("%d %d\n", r, c);
            fflush(stdout);                 /* a pipe keeps the line in a buffer until then */
        } else if (scanf("%d %d", &r, &c) != 2 || !onboard(r, c)) {
            return 0;                       /* end of input: the referee ended the game */
        }
        board[r][c] = turn;
        turn = (turn == 'X') ? 'O' : 'X';
    }
}

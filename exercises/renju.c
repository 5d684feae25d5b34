/*
 * Chapter 3: renju -- black's forbidden moves (禁手)
 * 第三章：连珠——黑棋的禁手
 *
 * The game of exercise 3 is here and works. In renju, X is black and moves
 * first, and black may not play a move that makes
 *   - an overline: six or more X in a row;           "Forbidden move: overline! Try again."
 *   - a double four: two or more fours at once;      "Forbidden move: double four! Try again."
 *   - a double three: two or more threes at once;    "Forbidden move: double three! Try again."
 * (the first of these that applies), and X then moves again. A move that
 * makes exactly five is never forbidden: it wins, whatever else it makes.
 * O (white) may play anything, and six in a row win for white.
 *
 *   five           five X in an unbroken row (six are no five for black);
 *   four           four X in a line that one more X makes exactly five:
 *                  OXXXX. and XX.XX are fours; so is X.XXX.X twice over;
 *   straight four  four X in an unbroken row whose two ends each make five:
 *                  .XXXX. (it cannot be stopped);
 *   three          three X in a line that one more X makes a straight four,
 *                  that X being a move black may play (allowed, and not a
 *                  five): .XXX. and .XX.X. are threes, OXXX.. is not.
 *
 * Input and everything else (prompts, "Invalid move! Try again.", the win
 * and draw lines) as in exercise 3. The contract: docs/chapter-3.md.
 *
 * 练习 3 的对弈已经写好并且可以运行。连珠规则中 X 是黑棋、先走，黑棋不能下会形成
 * 以下棋形的一手（按顺序取第一个成立的）：长连（六个或更多 X 连成一线）、双四（同时
 * 形成两个或更多的四）、双三（同时形成两个或更多的三），分别打印上面的提示，然后 X
 * 重下。正好连成五子的一手永远不是禁手：它直接获胜，不管同时还形成了什么。O（白棋）
 * 没有任何限制，白棋连成六子也算赢。
 *   五：五个 X 连成一线（黑棋的六连不算五）；
 *   四：一条线上的四个 X，再加一个 X 就正好成五：OXXXX.、XX.XX 都是四，X.XXX.X 是两个四；
 *   活四：连续的四个 X，两头各加一个都能成五：.XXXX.（挡不住）；
 *   三：一条线上的三个 X，再加一个 X 就成活四，而且这一个 X 是黑棋能下的（不是禁手，
 *       也不是五）：.XXX. 和 .XX.X. 是三，OXXX.. 不是。
 * 输入和其他一切（提示、"Invalid move! Try again."、胜负和平局信息）都和练习 3 一样。
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

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

/* The forbidden moves, in the order they are looked for, and their names. */
/* 禁手的种类（按检查顺序）和它们的名字。 */
enum { ALLOWED, OVERLINE, DOUBLE_FOUR, DOUBLE_THREE };
const char *const forbidden_names[] = { "", "overline", "double four", "double three" };

/* Given: the X in an unbroken row through (r, c) along direction d, (r, c)
 * included. Every question below is asked with an X put on (r, c) first. */
/* 已给出：沿方向 d 穿过 (r, c) 的连续 X 的个数，(r, c) 本身也算。下面的每个问题
 * 都是先在 (r, c) 放上 X 再问的。 */
int run_length(int r, int c, int d)
{
    int length = 1;

    for (int sign = -1; sign <= 1; sign += 2) {
        int nr = r + sign * dirs[d][0], nc = c + sign * dirs[d][1];

        while (onboard(nr, nc) && board[nr][nc] == 'X') {
            length++;
            nr += sign * dirs[d][0];
            nc += sign * dirs[d][1];
        }
    }
    return length;
}

/* Given: does the X on (r, c) stand in exactly five in a row? */
/* 已给出：(r, c) 上的 X 是否在某条线上正好连成五子？ */
int makes_five(int r, int c)
{
    for (int d = 0; d < 4; d++)
        if (run_length(r, c, d) == 5)
            return 1;
    return 0;
}

/* Six or more X in a row through (r, c), in some line? */
/* 穿过 (r, c) 的某条线上是否有六个或更多的 X 连成一线？ */
int makes_overline(int r, int c)
{
    /* TODO: like makes_five, with run_length(r, c, d) >= 6. */
    /* TODO：和 makes_five 一样，条件改成 run_length(r, c, d) >= 6。 */
    (void)r; (void)c;   /* TODO-remove */
    return 0;
}

/* How many fours the X on (r, c) makes along direction d (0, 1 or 2). */
/* (r, c) 上的 X 沿方向 d 形成几个四（0、1 或 2）。 */
int fours(int r, int c, int d)
{
    /* TODO: try each empty cell of the line within 4 of (r, c),
     *       (r + k * dirs[d][0], c + k * dirs[d][1]) for k = -4..4: put an X
     *       there, ask run_length(r, c, d) == 5, take it back. Each such cell
     *       shows a four. But an open four .XXXX. is shown by both its ends,
     *       five cells apart (k differs by 5), and it is one four; two cells
     *       closer together are two fours (X.XXX.X). */
    /* TODO：试这条线上距 (r, c) 4 格以内的每个空格子
     *       (r + k * dirs[d][0], c + k * dirs[d][1])，k = -4..4：放一个 X，
     *       看 run_length(r, c, d) == 5，再拿走。每个这样的格子都说明有一个四。
     *       但活四 .XXXX. 的两头都满足，相隔 5 格（k 相差 5），它只是一个四；
     *       相隔更近的两个格子是两个四（X.XXX.X）。 */
    (void)r; (void)c; (void)d;   /* TODO-remove */
    return 0;
}

/* Is the unbroken row of X through (r, c) along d a straight four? */
/* 穿过 (r, c) 沿方向 d 的连续 X 是不是活四？ */
int straight_four(int r, int c, int d)
{
    /* TODO: run_length(r, c, d) must be 4; then walk from (r, c) to each
     *       end of the row (while the cell is 'X'), one cell past it: that
     *       cell must be on the board, empty, and make exactly five when an
     *       X is put there (run_length == 5 from it). Both ends. */
    /* TODO：run_length(r, c, d) 必须是 4；然后从 (r, c) 向两头走（格子是 'X'
     *       就继续），走到这一串之外的第一个格子：它必须在棋盘上、是空的，
     *       并且放上 X 后正好成五（从它算 run_length == 5）。两头都要满足。 */
    (void)r; (void)c; (void)d;   /* TODO-remove */
    return 0;
}

int forbidden(int r, int c);

/* Does the X on (r, c) make a three along d? (Asked only of a line with no
 * four.) */
/* (r, c) 上的 X 是否沿方向 d 形成一个三？（只对没有四的线问。） */
int three(int r, int c, int d)
{
    /* TODO: for each empty cell (nr, nc) of the line within 4 of (r, c): put
     *       an X there and ask straight_four(r, c, d) && !makes_five(nr, nc);
     *       take it back; if so, and forbidden(nr, nc) == ALLOWED (black may
     *       play that cell), it is a three. A three that could only become
     *       a straight four on a forbidden cell is no three. */
    /* TODO：对这条线上距 (r, c) 4 格以内的每个空格子 (nr, nc)：放一个 X，看
     *       straight_four(r, c, d) && !makes_five(nr, nc)，再拿走；如果成立，并且
     *       forbidden(nr, nc) == ALLOWED（黑棋能下这个点），就是一个三。只能在
     *       禁手点上变成活四的三不算三。 */
    (void)r; (void)c; (void)d;   /* TODO-remove */
    return 0;
}

/* Would X's move on the empty cell (r, c) be forbidden, and by which rule? */
/* X 下在空格子 (r, c) 是否是禁手？是哪一种？ */
int forbidden(int r, int c)
{
    /* TODO: put an X on (r, c); then
     *       - makes_five(r, c): ALLOWED (exactly five wins);
     *       - else makes_overline(r, c): OVERLINE;
     *       - else add up fours(r, c, d) over the four directions, and
     *         three(r, c, d) over those with no four: two fours or more are
     *         DOUBLE_FOUR, else two threes or more DOUBLE_THREE;
     *       take the X back before you return. */
    /* TODO：先在 (r, c) 放一个 X；然后
     *       - makes_five(r, c)：ALLOWED（正好五子就赢）；
     *       - 否则 makes_overline(r, c)：OVERLINE；
     *       - 否则对四个方向累加 fours(r, c, d)，对没有四的方向累加
     *         three(r, c, d)：两个或更多的四是 DOUBLE_FOUR，否则两个或更多的三
     *         是 DOUBLE_THREE；
     *       返回之前把 X 拿走。 */
    (void)r; (void)c;   /* TODO-remove */
    return ALLOWED;
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

        /* TODO: X's move only: if forbidden(r, c) is not ALLOWED, print
         *       "Forbidden move: %s! Try again.\n" with its name from
         *       forbidden_names, and continue (X moves again). */
        /* TODO：只对 X：如果 forbidden(r, c) 不是 ALLOWED，用 forbidden_names 里的
         *       名字打印 "Forbidden move: %s! Try again.\n"，然后 continue（X 重下）。 */

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

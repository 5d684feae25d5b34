/*
 * Chapter 3: search -- a computer player that looks ahead
 * 第三章：搜索——会往后看的电脑棋手
 *
 * The protocol is the ai exercise's, and main() below speaks it: the
 * referee's first line is "X" or "O" (your stones, X first); your moves are
 * written as "r c" and flushed, the opponent's are read; when the input
 * ends, main() exits 0. Each move within 1 s.
 *
 * The ai exercise scored each cell alone. Here think() looks DEPTH moves
 * ahead (yours, theirs, yours, theirs) by minimax with alpha-beta pruning:
 *   - minimax(): the value of a position for `me`; `me` takes the highest
 *     value of its moves, the opponent the lowest; alpha and beta cut the
 *     moves that cannot change the choice;
 *   - the side to move wins if it can make five, loses if the other side
 *     has two cells that make five, and must take the cell if it has one;
 *   - candidates(): the cells worth trying, within two of a stone, the most
 *     promising first (score()), at most BRANCHES (FIRST_BRANCHES at first);
 *   - at the end of the look-ahead, evaluate() scores the position.
 * Given: the board and its windows of five (put(), take(), evaluate(),
 * score()), five_cells(), the protocol. To write: candidates(), minimax(),
 * think(). The contract: docs/chapter-3.md.
 *
 * 协议和 ai 练习相同，下面的 main() 已经实现：裁判的第一行是 "X" 或 "O"（你的棋子，
 * X 先走）；你的落子写成 "r c" 并 fflush，对手的落子读入；输入结束时 main() 以 0
 * 退出。每步 1 秒以内。
 * ai 练习只给每个格子单独打分。这里 think() 用带 alpha-beta 剪枝的极小极大搜索往后看
 * DEPTH 步（你、对手、你、对手）：minimax() 求局面对 me 的价值，me 取自己各步中最高的
 * 值，对手取最低的值，alpha 和 beta 剪掉不可能改变选择的分支；轮到的一方能连五就赢，
 * 对方有两个成五点就输，对方有一个成五点就必须堵；candidates() 给出值得一试的格子
 * （棋子两格以内，score() 高的在前，最多 BRANCHES 个，第一步 FIRST_BRANCHES 个）；
 * 看到尽头时用 evaluate() 给局面打分。已给出：棋盘和它的五格窗口（put()、take()、
 * evaluate()、score()）、five_cells()、通信协议。要写的：candidates()、minimax()、think()。
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15
#define DEPTH 4         /* moves looked ahead: ours, theirs, ours, theirs */
#define FIRST_BRANCHES 16   /* cells tried for the move to play */
#define BRANCHES 8      /* cells tried at each position below it */
#define WIN 100000000   /* a five: more than any evaluate() */

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

char other(char player)
{
    return player == 'X' ? 'O' : 'X';
}

/* Would a stone of `player` on the empty cell (r, c) make five or more in
 * a row? Only the lines through (r, c) can change. */
int makes_five(int r, int c, char player)
{
    for (int d = 0; d < 4; d++) {
        int length = 1;

        for (int sign = -1; sign <= 1; sign += 2) {
            int nr = r + sign * dirs[d][0], nc = c + sign * dirs[d][1];

            while (onboard(nr, nc) && board[nr][nc] == player) {
                length++;
                nr += sign * dirs[d][0];
                nc += sign * dirs[d][1];
            }
        }
        if (length >= 5)
            return 1;
    }
    return 0;
}

/* The worth of a window of five cells holding `stones` of one side and
 * none of the other: it may still become that side's five. */
static const int window_worth[6] = { 0, 1, 10, 100, 1000, WIN };

/* For every window of five cells, the stones of each side it holds:
 * stones[d][r][c][0] X's and [1] O's, in the window that starts at (r, c)
 * and runs along direction d (only windows that fit on the board count).
 * put() and take() keep them, and balance, up to date: a stone changes the
 * 20 windows through its cell, no others. */
static int stones[4][SIZE][SIZE][2];
/* The position's value for X: the worth of the windows with X's stones
 * only, less the worth of those with O's only. */
static int balance;
/* How many stones stand within two cells of each cell: the cells worth
 * trying are those with one at least. */
static int neighbours[SIZE][SIZE];

int side(char player)
{
    return player == 'X' ? 0 : 1;
}

/* Does the window of five from (r, c) along d fit on the board? */
int window_fits(int r, int c, int d)
{
    return onboard(r, c) && onboard(r + 4 * dirs[d][0], c + 4 * dirs[d][1]);
}

/* The value for X of a window that fits: 0 if it holds both sides. */
int window_value(int r, int c, int d)
{
    int x = stones[d][r][c][0], o = stones[d][r][c][1];

    if (o == 0)
        return window_worth[x];
    if (x == 0)
        return -window_worth[o];
    return 0;
}

/* Sets (r, c) to `cell` ('X', 'O' or '.'): each window through (r, c) is
 * taken out of balance, gets its new count of stones, and is counted
 * again. */
void set_cell(int r, int c, char cell)
{
    int change = (cell != '.') - (board[r][c] != '.');

    for (int d = 0; d < 4; d++)
        for (int k = 0; k < 5; k++) {
            int sr = r - k * dirs[d][0], sc = c - k * dirs[d][1];    /* the window's start */

            if (!window_fits(sr, sc, d))
                continue;
            balance -= window_value(sr, sc, d);
            if (board[r][c] != '.')
                stones[d][sr][sc][side(board[r][c])]--;
            if (cell != '.')
                stones[d][sr][sc][side(cell)]++;
            balance += window_value(sr, sc, d);
        }
    board[r][c] = cell;
    for (int i = r - 2; i <= r + 2; i++)
        for (int j = c - 2; j <= c + 2; j++)
            if (onboard(i, j))
                neighbours[i][j] += change;
}

/* A stone of `player` on (r, c), and taking it back: every change of the
 * board goes through these two. */
void put(int r, int c, char player) { set_cell(r, c, player); }
void take(int r, int c)             { set_cell(r, c, '.'); }

/* The position for `me`: the more windows `me` can still fill, and the
 * fuller they are, the better; the other side's count against. */
int evaluate(char me)
{
    return me == 'X' ? balance : -balance;
}

/* How much a stone of `player` on the empty cell (r, c) would add to its
 * windows: each window of five through (r, c) with no stone of the other
 * side is worth more with one more stone in it. A cell that fills two
 * windows to four (two fours, or an open four) comes first, then a four,
 * then threes. */
int score(int r, int c, char player)
{
    int total = 0, mine = side(player), theirs = 1 - mine;

    for (int d = 0; d < 4; d++)
        for (int k = 0; k < 5; k++) {
            int sr = r - k * dirs[d][0], sc = c - k * dirs[d][1];

            if (window_fits(sr, sc, d) && stones[d][sr][sc][theirs] == 0) {
                int n = stones[d][sr][sc][mine];
                total += window_worth[n + 1] - window_worth[n];
            }
        }
    return total;
}

/* A cell to try, and what score() says of it. */
struct candidate {
    int r, c, value;
};

/* qsort's order: the highest value first; equal values by row, then column,
 * so that the order is the same with every C library. */
int best_first(const void *a, const void *b)
{
    const struct candidate *x = a, *y = b;

    if (x->value != y->value)
        return y->value > x->value ? 1 : -1;
    if (x->r != y->r)
        return x->r - y->r;
    return x->c - y->c;
}

/* The cells `player` may try, best first: within two of a stone (the
 * others cannot make or stop a line soon), ordered by what they do for
 * `player` and against the other side. At most `max`; how many. */
int candidates(char player, int cells[][2], int max)
{
    /* TODO: for every empty cell with neighbours[r][c] > 0, put it in a
     *       struct candidate array with value = score(r, c, player) +
     *       score(r, c, other(player)) (your lines and the ones you spoil);
     *       sort them with qsort(all, n, sizeof all[0], best_first); copy
     *       the first `max` (or fewer) into cells[i][0], cells[i][1] and
     *       return how many. */
    /* TODO：对每个 neighbours[r][c] > 0 的空格子，放进 struct candidate 数组，
     *       value = score(r, c, player) + score(r, c, other(player))（自己的线和
     *       破坏对手的线）；用 qsort(all, n, sizeof all[0], best_first) 排序；把前
     *       max 个（或更少）复制到 cells[i][0]、cells[i][1]，返回个数。 */
    (void)player; (void)cells; (void)max;   /* TODO-remove */
    return 0;
}

/* The cells where `player` would make five: how many (up to 2 are kept). */
int five_cells(char player, int cells[2][2])
{
    int n = 0;

    for (int r = 0; r < SIZE; r++)
        for (int c = 0; c < SIZE; c++)
            if (empty(r, c) && neighbours[r][c] > 0 && makes_five(r, c, player)) {
                if (n < 2) {
                    cells[n][0] = r;
                    cells[n][1] = c;
                }
                n++;
            }
    return n;
}

/* Minimax with alpha-beta: the value for `me` of the position with `turn`
 * to move, looking `depth` moves ahead; `ply` moves have been made since
 * the search began. `me` maximises, the other side minimises. alpha is the
 * value `me` is already sure of, beta the value the other side is sure of:
 * once alpha >= beta, the other moves of this position cannot change the
 * choice above it, and are not tried (the cut). A win sooner is worth more
 * than a win later (WIN - ply), a loss later less bad than a loss sooner. */
int minimax(char me, char turn, int depth, int ply, int alpha, int beta)
{
    /* TODO, in this order:
     *   1. five_cells(turn, ...) > 0: turn makes five now; return WIN - ply
     *      if turn is me, -(WIN - ply) if not;
     *   2. two or more five_cells(other(turn), ...): turn can stop one only,
     *      it loses: the opposite value;
     *   3. depth == 0: return evaluate(me);
     *   4. one five cell of other(turn): it is the only move to try; else
     *      the moves are candidates(turn, cells, BRANCHES) (none: a draw, 0);
     *   5. for each move: put(r, c, turn); value = minimax(me, other(turn),
     *      depth - 1, ply + 1, alpha, beta); take(r, c);
     *      if turn is me, keep the highest value and raise alpha to it; else
     *      keep the lowest and lower beta to it; once alpha >= beta, break:
     *      the other moves cannot change the choice above;
     *   6. return the value kept. */
    /* TODO，按顺序：
     *   1. five_cells(turn, ...) > 0：turn 现在就能连五；turn 是 me 就返回
     *      WIN - ply，否则返回 -(WIN - ply)；
     *   2. other(turn) 有两个或更多成五点：turn 只能堵一个，输了：返回相反的值；
     *   3. depth == 0：返回 evaluate(me)；
     *   4. other(turn) 有一个成五点：只试这一步；否则试 candidates(turn, cells,
     *      BRANCHES)（没有格子：平局，返回 0）；
     *   5. 对每一步：put(r, c, turn); value = minimax(me, other(turn), depth - 1,
     *      ply + 1, alpha, beta); take(r, c);
     *      turn 是 me 时保留最大值并把 alpha 提高到它；否则保留最小值并把 beta
     *      降到它；一旦 alpha >= beta 就 break：其余的步改变不了上一层的选择；
     *   6. 返回保留的值。 */
    (void)me; (void)turn; (void)depth; (void)ply; (void)alpha; (void)beta;   /* TODO-remove */
    return 0;
}

/* Chooses the move of `me` into *r, *c; returns 0 if no cell is empty. */
int think(int *r, int *c, char me)
{
    /* TODO: if five_cells(me, ...) finds a cell, play it; else if
     *       five_cells(other(me), ...) does, play that one (no search for
     *       those). Else take candidates(me, cells, FIRST_BRANCHES): none
     *       means no stone yet, play the centre SIZE / 2, SIZE / 2. For each
     *       candidate: put it, value = minimax(me, other(me), DEPTH - 1, 1,
     *       alpha, beta), take it back; keep the cell of the highest value in
     *       *r, *c and raise alpha to it (beta stays WIN + 2). Return 1. */
    /* TODO：如果 five_cells(me, ...) 找到格子就下那里；否则如果
     *       five_cells(other(me), ...) 找到，就下那一个（这两种不用搜索）。否则取
     *       candidates(me, cells, FIRST_BRANCHES)：一个都没有说明棋盘上还没有棋子，
     *       下中心 SIZE / 2, SIZE / 2。对每个候选格子：放上去，value = minimax(me,
     *       other(me), DEPTH - 1, 1, alpha, beta)，再拿走；把价值最高的格子存进
     *       *r、*c，并把 alpha 提高到这个值（beta 保持 WIN + 2）。返回 1。 */
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
        put(r, c, turn);
        turn = (turn == 'X') ? 'O' : 'X';
    }
}

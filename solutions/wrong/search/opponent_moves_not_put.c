/* wrong: main puts only its own moves on the board, never the opponent's it reads: the board it searches has empty cells where the opponent's stones are */
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
    struct candidate all[SIZE * SIZE];
    int n = 0;

    for (int r = 0; r < SIZE; r++)
        for (int c = 0; c < SIZE; c++)
            if (empty(r, c) && neighbours[r][c] > 0) {
                all[n].r = r;
                all[n].c = c;
                all[n].value = score(r, c, player) + score(r, c, other(player));
                n++;
            }
    qsort(all, n, sizeof all[0], best_first);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        cells[i][0] = all[i].r;
        cells[i][1] = all[i].c;
    }
    return n;
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
    int sign = turn == me ? 1 : -1;     /* +1 where me moves, -1 where they do */
    int fives[2][2], cells[BRANCHES][2], n;

    if (five_cells(turn, fives) > 0)
        return sign * (WIN - ply);      /* turn makes five now */
    int threats = five_cells(other(turn), fives);
    if (threats >= 2)
        return -sign * (WIN - ply - 1); /* two fives to stop: one comes */
    if (depth == 0)
        return evaluate(me);
    if (threats == 1) {                 /* the only move: stop the five */
        cells[0][0] = fives[0][0];
        cells[0][1] = fives[0][1];
        n = 1;
    } else {
        n = candidates(turn, cells, BRANCHES);
        if (n == 0)
            return 0;                   /* the board is full: a draw */
    }

    int best = turn == me ? -WIN - 1 : WIN + 1;
    for (int i = 0; i < n; i++) {
        int r = cells[i][0], c = cells[i][1];

        put(r, c, turn);
        int value = minimax(me, other(turn), depth - 1, ply + 1, alpha, beta);
        take(r, c);
        if (turn == me) {
            if (value > best)
                best = value;
            if (best > alpha)
                alpha = best;
        } else {
            if (value < best)
                best = value;
            if (best < beta)
                beta = best;
        }
        if (alpha >= beta)
            break;                      /* the cut: this line is decided */
    }
    return best;
}

/* Chooses the move of `me` into *r, *c; returns 0 if no cell is empty. */
int think(int *r, int *c, char me)
{
    int cells[FIRST_BRANCHES][2], fives[2][2], n;

    /* a five to make, else one to stop: no search needed (|| stops at
     * the first that finds a cell, so fives holds ours if we have one) */
    if (five_cells(me, fives) > 0 || five_cells(other(me), fives) > 0) {
        *r = fives[0][0];
        *c = fives[0][1];
        return 1;
    }
    /* The move to play is chosen among more cells than the moves below
     * it: the best by score(), so a cell that wins in two, or stops the
     * other side's, is among them. */
    n = candidates(me, cells, FIRST_BRANCHES);
    if (n == 0) {                       /* no stone yet: the centre */
        *r = *c = SIZE / 2;
        return empty(*r, *c);
    }

    int best = -WIN - 2, alpha = -WIN - 2, beta = WIN + 2;
    for (int i = 0; i < n; i++) {
        int row = cells[i][0], col = cells[i][1];

        put(row, col, me);
        int value = minimax(me, other(me), DEPTH - 1, 1, alpha, beta);
        take(row, col);
        if (value > best) {
            best = value;
            alpha = value;
            *r = row;
            *c = col;
        }
    }
    return 1;
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
            put(r, c, turn);
        } else if (scanf("%d %d", &r, &c) != 2 || !onboard(r, c)) {
            return 0;                       /* end of input: the referee ended the game */
        }
        turn = (turn == 'X') ? 'O' : 'X';
    }
}

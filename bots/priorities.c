/*
 * bots/priorities.c -- a Gomoku player with the lesson's priorities: make
 * five; else block the opponent's four; else extend its own three to a four;
 * else the cell next to the longest lines (its own count twice), near the
 * centre. Equal cells are drawn at random.
 *
 *     priorities [SEED]
 *
 * It speaks the protocol of the `ai` exercise (referees/README.md): its first
 * line in is its colour, "X" or "O"; then it writes its moves as "r c" and
 * reads the opponent's; at the end of its input it exits 0.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15

/* BEGIN shared: board */
static char board[SIZE][SIZE];          /* '.', 'X' or 'O' */

static int on_board(int r, int c)
{
    return r >= 0 && r < SIZE && c >= 0 && c < SIZE;
}

static char other(char who)
{
    return who == 'X' ? 'O' : 'X';
}

/* A seeded generator of our own, so that a seed plays the same game on
 * every C library (rand() differs between them). */
static unsigned long long rng_state = 1;

static void seed_random(unsigned long seed)
{
    rng_state = seed * 2654435761ULL + 1;
}

static int random_below(int n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (int)((rng_state >> 33) % (unsigned long long)n);
}

/* Picks the best of the cells offered one by one, a fair random one among
 * equals (reservoir sampling: the k-th equal replaces the pick with
 * probability 1/k). */
struct pick {
    long best;
    int ties, r, c;
};

static void pick_start(struct pick *p)
{
    p->best = LONG_MIN;
    p->ties = 0;
    p->r = p->c = -1;
}

static void pick_offer(struct pick *p, int r, int c, long score)
{
    if (score > p->best) {
        p->best = score;
        p->ties = 1;
    } else if (score == p->best) {
        p->ties++;
        if (random_below(p->ties) != 0)
            return;
    } else {
        return;
    }
    p->r = r;
    p->c = c;
}
/* END shared: board */

/* BEGIN shared: lines */
static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

/* Near the centre is worth a little more: it leaves room for lines. */
static int centre_bonus(int r, int c)
{
    return SIZE - 1 - abs(r - SIZE / 2) - abs(c - SIZE / 2);
}
/* END shared: lines */

/* BEGIN shared: priorities */
/* The stones of `who` in a row through (r, c) along direction d, (r, c)
 * counted as one of them whatever it holds: asked of an empty cell, it says
 * how long the line would be if `who` played there. */
static int run_through(int r, int c, int d, char who)
{
    int n = 1;

    for (int sign = -1; sign <= 1; sign += 2) {
        int nr = r + sign * dirs[d][0], nc = c + sign * dirs[d][1];

        while (on_board(nr, nc) && board[nr][nc] == who) {
            n++;
            nr += sign * dirs[d][0];
            nc += sign * dirs[d][1];
        }
    }
    return n;
}

/* The longest line `who` would have through (r, c). */
static int longest_run(int r, int c, char who)
{
    int longest = 0;

    for (int d = 0; d < 4; d++) {
        int n = run_through(r, c, d, who);
        if (n > longest)
            longest = n;
    }
    return longest;
}

/* The lesson's strategy, in its order: make five; else block the
 * opponent's four; else extend an own three to four; else the cell that
 * lengthens the longest lines, its own counting twice. */
static int priorities_move(char me, int *r, int *c)
{
    char opp = other(me);
    struct pick p;

    pick_start(&p);
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++) {
            if (board[i][j] != '.')
                continue;

            long rank;
            if (longest_run(i, j, me) >= 5)
                rank = 4;
            else if (longest_run(i, j, opp) >= 5)
                rank = 3;
            else if (longest_run(i, j, me) == 4)
                rank = 2;
            else
                rank = 1;

            long score = 0;
            for (int d = 0; d < 4; d++) {
                int mine = run_through(i, j, d, me) - 1;
                int theirs = run_through(i, j, d, opp) - 1;
                score += 2 * mine * mine + theirs * theirs;
            }
            /* rank first, then the score, then the centre */
            pick_offer(&p, i, j, rank * 1000000 + score * 100 + centre_bonus(i, j));
        }
    *r = p.r;
    *c = p.c;
    return p.r >= 0;
}
/* END shared: priorities */

int main(int argc, char **argv)
{
    char me, turn = 'X';

    seed_random(argc > 1 ? strtoul(argv[1], NULL, 10) : 1);
    if (scanf(" %c", &me) != 1 || (me != 'X' && me != 'O'))
        return 0;
    memset(board, '.', sizeof board);
    for (;;) {
        int r, c;

        if (turn == me) {
            if (!priorities_move(me, &r, &c))
                return 0;           /* a full board: nothing left to play */
            printf("%d %d\n", r, c);
            fflush(stdout);         /* a pipe: without it the move waits in a buffer */
        } else if (scanf("%d %d", &r, &c) != 2 || !on_board(r, c)) {
            return 0;               /* the referee closed our input: the game is over */
        }
        board[r][c] = turn;
        turn = other(turn);
    }
}

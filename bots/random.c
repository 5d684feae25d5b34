/*
 * bots/random.c -- a Gomoku player that plays a random empty cell.
 *
 *     random [SEED]
 *
 * It speaks the protocol of the `ai` exercise (referees/README.md): its first
 * line in is its colour, "X" or "O"; then it writes its moves as "r c" and
 * reads the opponent's; at the end of its input it exits 0. The same seed
 * plays the same moves against the same opponent.
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

/* BEGIN shared: random */
static int random_move(int *r, int *c)
{
    struct pick p;

    pick_start(&p);
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.')
                pick_offer(&p, i, j, 0);
    *r = p.r;
    *c = p.c;
    return p.r >= 0;
}
/* END shared: random */

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
            if (!random_move(&r, &c))
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

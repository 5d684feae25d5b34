/*
 * bots/strong.c -- a Gomoku player that scores every cell near the stones by
 * the shapes it makes for both sides (five, open four, four, open three,
 * three, room to grow), attack counted twice, and plays the best. No search:
 * every move takes a few milliseconds.
 *
 *     strong [SEED]
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

/* BEGIN shared: strong */
/* Pattern scoring, as Gomoku programs without search do it. For an empty
 * cell and a side, each of the four lines through the cell is read as the 9
 * cells around it and given a shape, as if the side played there:
 *   five        five in a row
 *   open four   two different cells would make five: it cannot be stopped
 *   four        one cell would make five: the other side must answer there
 *   open three  one more stone makes an open four
 *   three       one more stone makes a four
 * and the cell's value for the side comes from the shapes of its four lines
 * together (two fours, or a four and an open three, win like an open four).
 * A move is worth its value for us (attack, counted twice) plus its value
 * for the opponent (the threat it takes away). */
enum cell_kind { WALL, FREE, MINE };
enum shape { NO_SHAPE, THREE, OPEN_THREE, FOUR, OPEN_FOUR, FIVE, SHAPES };

/* The 9 cells of direction d centred on (r, c), the centre as `who`'s. */
static void read_line(int r, int c, int d, char who, int cells[9])
{
    for (int k = -4; k <= 4; k++) {
        int nr = r + k * dirs[d][0], nc = c + k * dirs[d][1];

        if (k == 0 || (on_board(nr, nc) && board[nr][nc] == who))
            cells[k + 4] = MINE;
        else if (on_board(nr, nc) && board[nr][nc] == '.')
            cells[k + 4] = FREE;
        else
            cells[k + 4] = WALL;
    }
}

/* Five MINE in a row through the centre (index 4): the five windows of five
 * cells that hold it. */
static int line_has_five(const int cells[9])
{
    for (int start = 0; start <= 4; start++) {
        int k = 0;
        while (k < 5 && cells[start + k] == MINE)
            k++;
        if (k == 5)
            return 1;
    }
    return 0;
}

/* How many FREE cells would each make a five through the centre. */
static int cells_making_five(int cells[9])
{
    int n = 0;

    for (int i = 0; i < 9; i++)
        if (cells[i] == FREE) {
            cells[i] = MINE;
            n += line_has_five(cells);
            cells[i] = FREE;
        }
    return n;
}

static enum shape line_shape(int cells[9])
{
    if (line_has_five(cells))
        return FIVE;

    int fives = cells_making_five(cells);
    if (fives >= 2)
        return OPEN_FOUR;
    if (fives == 1)
        return FOUR;

    enum shape best = NO_SHAPE;
    for (int i = 0; i < 9; i++)
        if (cells[i] == FREE) {
            cells[i] = MINE;
            fives = cells_making_five(cells);
            cells[i] = FREE;
            if (fives >= 2)
                return OPEN_THREE;
            if (fives == 1)
                best = THREE;
        }
    return best;
}

/* Windows of five through the centre with no WALL: room to grow a line;
 * each is worth the square of the stones it already holds. */
static int line_room(const int cells[9])
{
    int room = 0;

    for (int start = 0; start <= 4; start++) {
        int stones = 0, blocked = 0;
        for (int k = 0; k < 5; k++) {
            if (cells[start + k] == WALL)
                blocked = 1;
            stones += cells[start + k] == MINE;
        }
        if (!blocked)
            room += stones * stones;
    }
    return room;
}

static long cell_value(int r, int c, char who)
{
    int count[SHAPES] = { 0 };
    long room = 0;

    for (int d = 0; d < 4; d++) {
        int cells[9];
        read_line(r, c, d, who, cells);
        count[line_shape(cells)]++;
        room += line_room(cells);
    }
    if (count[FIVE])
        return 10000000;
    if (count[OPEN_FOUR] || count[FOUR] >= 2 || (count[FOUR] && count[OPEN_THREE]))
        return 1000000;
    if (count[OPEN_THREE] >= 2)
        return 100000;
    return 5000L * (count[FOUR] + count[OPEN_THREE]) + 500L * count[THREE] + room;
}

/* Only cells within two of a stone are worth a look (the centre on an
 * empty board): that keeps every move far under the time limit. */
static int near_a_stone(int r, int c)
{
    for (int i = r - 2; i <= r + 2; i++)
        for (int j = c - 2; j <= c + 2; j++)
            if (on_board(i, j) && board[i][j] != '.')
                return 1;
    return 0;
}

static int strong_move(char me, int *r, int *c)
{
    struct pick p;
    int stones = 0;

    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            stones += board[i][j] != '.';

    pick_start(&p);
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++) {
            if (board[i][j] != '.' || (stones > 0 && !near_a_stone(i, j)))
                continue;
            long score = 2 * cell_value(i, j, me) + cell_value(i, j, other(me));
            pick_offer(&p, i, j, score * 32 + centre_bonus(i, j));
        }
    *r = p.r;
    *c = p.c;
    return p.r >= 0;
}
/* END shared: strong */

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
            if (!strong_move(me, &r, &c))
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

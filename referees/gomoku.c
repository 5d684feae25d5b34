/*
 * The referee of the `ai` exercise: it plays Gomoku (15x15, five or more in a
 * row wins) against the student's program and judges it, as Kattis
 * interactors do.
 *
 *     referee INPUT_FILE ANSWER_FILE FEEDBACK_DIR
 *
 * Its stdout is the program's stdin and the program's stdout is its stdin.
 * INPUT_FILE says which colour the program plays, which opponent the referee
 * plays and what the program must do (format in referees/README.md);
 * ANSWER_FILE is not used. It writes to FEEDBACK_DIR:
 *     teammessage.txt  one line for the student
 *     judgemessage.txt the details: the case, the verdict, the last board
 *     moves.txt        the game, one "X r c" or "O r c" line per move
 * and exits 42 (accepted) or 43 (wrong answer); 1 is its own error (a bad
 * INPUT_FILE, a FEEDBACK_DIR it cannot write), never the student's.
 *
 * The protocol: the referee's first line is the program's colour, "X" or
 * "O" (X moves first); then the program writes its moves as "r c" lines and
 * reads the opponent's the same way. The referee ends the game (a five, a
 * full board, a wrong move) by closing the program's stdin; the program must
 * then stop. Every move within the time limit (1 s).
 *
 * With a `battle` case it judges two external players instead, A (X) and B
 * (O), each a lesson player or a Gomocup engine, through tagged lines the
 * runner routes (see battle()); it then exits 42 whatever the result, which
 * is in FEEDBACK_DIR/result.txt.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SIZE 15
#define CELLS (SIZE * SIZE)

enum { ACCEPTED = 42, WRONG_ANSWER = 43, REFEREE_ERROR = 1 };

/* Longer than any sensible move line: a longer line is garbage, whatever it says. */
#define MAX_LINE 64
/* How long the program may take to stop once its stdin is closed. */
#define STOP_GRACE_MS 1000
/* After a move that did not come in time, how long its line may take to come once the
 * program's stdin is closed: a program that printed it without fflush is waiting for its
 * next line, and writes it as it exits, at once. One still thinking is not waited for (a
 * second more of its search tells nothing, and a line then would be no missing fflush). */
#define LATE_LINE_MS 300
/* The program's first move may take this much longer: it includes its start-up. */
#define START_UP_MS 1000

/* === The opponents' strategies ===
 * The same code as the bots' (bots/random.c, priorities.c, strong.c), block
 * for block: bench/battle.sh checks that the BEGIN/END blocks agree. */
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

/* === Renju: black's forbidden moves (`rule renju`) ===
 * X is black. Black may not play an overline (six or more in a row), a
 * double four or a double three, unless the move makes exactly five, which
 * wins whatever else it makes; white is free, and six win for white. RIF's
 * definitions, as the renju exercise states them (docs/chapter-3.md):
 *   four           four stones of a line that one more makes exactly five;
 *   straight four  an unbroken four whose two ends each make exactly five;
 *   three          three stones of a line that one more makes a straight
 *                  four, that stone being a move black may play (not a
 *                  five, not forbidden): the rule is recursive. */
enum renju_verdict { RENJU_ALLOWED, RENJU_OVERLINE, RENJU_DOUBLE_FOUR, RENJU_DOUBLE_THREE };
static const char *const renju_names[] = { "", "overline", "double four", "double three" };

/* Black's stone on (r, c) stands in exactly five in a row, in some line. */
static int black_five_at(int r, int c)
{
    for (int d = 0; d < 4; d++)
        if (run_through(r, c, d, 'X') == 5)
            return 1;
    return 0;
}

/* The fours of black's stone on (r, c) along d, read window by window: a
 * window of five cells holding (r, c), four black stones and an empty cell
 * that makes exactly five (run_through counts that cell as black). An open
 * four .XXXX. fills two windows side by side, and is one four; any other two
 * windows are two fours (X.XXX.X). */
static int black_fours(int r, int c, int d)
{
    int fours = 0, previous = 0;

    for (int start = -4; start <= 0; start++) {
        int stones = 0, empties = 0, gap_r = -1, gap_c = -1;

        for (int k = start; k < start + 5; k++) {
            int nr = r + k * dirs[d][0], nc = c + k * dirs[d][1];

            if (!on_board(nr, nc)) {
                stones = 0;
                break;
            }
            if (board[nr][nc] == 'X') {
                stones++;
            } else if (board[nr][nc] == '.') {
                empties++;
                gap_r = nr;
                gap_c = nc;
            }
        }
        int window = stones == 4 && empties == 1 && run_through(gap_r, gap_c, d, 'X') == 5;
        fours += window && !previous;
        previous = window;
    }
    return fours;
}

/* Black's unbroken row through (r, c) along d is a straight four. */
static int black_straight_four(int r, int c, int d)
{
    if (run_through(r, c, d, 'X') != 4)
        return 0;
    for (int sign = -1; sign <= 1; sign += 2) {
        int nr = r, nc = c;

        while (on_board(nr, nc) && board[nr][nc] == 'X') {
            nr += sign * dirs[d][0];
            nc += sign * dirs[d][1];
        }
        if (!on_board(nr, nc) || board[nr][nc] != '.' || run_through(nr, nc, d, 'X') != 5)
            return 0;
    }
    return 1;
}

static enum renju_verdict renju_verdict(int r, int c);

/* Black's stone on (r, c) makes a three along d (asked of a line with no four). */
static int black_three(int r, int c, int d)
{
    for (int k = -4; k <= 4; k++) {
        int nr = r + k * dirs[d][0], nc = c + k * dirs[d][1];

        if (!on_board(nr, nc) || board[nr][nc] != '.')
            continue;
        board[nr][nc] = 'X';
        int straight = black_straight_four(r, c, d) && !black_five_at(nr, nc);
        board[nr][nc] = '.';
        if (straight && renju_verdict(nr, nc) == RENJU_ALLOWED)
            return 1;
    }
    return 0;
}

/* Black's move on the empty cell (r, c), judged by renju's rules. */
static enum renju_verdict renju_verdict(int r, int c)
{
    enum renju_verdict verdict = RENJU_ALLOWED;
    int fours = 0, threes = 0, overline = 0;

    board[r][c] = 'X';
    if (!black_five_at(r, c)) {
        for (int d = 0; d < 4; d++)
            overline |= run_through(r, c, d, 'X') >= 6;
        for (int d = 0; d < 4 && !overline; d++) {
            int n = black_fours(r, c, d);
            fours += n;
            threes += n == 0 && black_three(r, c, d);
        }
        if (overline)
            verdict = RENJU_OVERLINE;
        else if (fours >= 2)
            verdict = RENJU_DOUBLE_FOUR;
        else if (threes >= 2)
            verdict = RENJU_DOUBLE_THREE;
    }
    board[r][c] = '.';
    return verdict;
}

/* === The case === */

enum opponent_kind { OPP_RANDOM, OPP_PRIORITIES, OPP_STRONG, OPP_SCRIPT };
static const char *const opponent_names[] = { "random", "priorities", "strong", "script" };

/* What the program must do, besides playing legal moves in time. */
enum rule {
    RULE_TAKE_FIVE = 1,     /* whenever it can make five, it does */
    RULE_BLOCK_FOUR = 2,    /* it fills the cell where the opponent would make five */
    RULE_WIN = 4,
    RULE_NOT_LOSE = 8,      /* a win or a draw */
    RULE_EXTEND_THREE = 16, /* else, with a three of its own, it makes a four */
    RULE_RENJU = 32,        /* renju's rules: black's forbidden moves are illegal */
    RULE_WIN_IN_TWO = 64,   /* with a move that wins in two, it plays one */
    RULE_BLOCK_WIN_IN_TWO = 128,    /* when the opponent could win in two, it stops that */
};

static struct {
    char player;                        /* the program's colour */
    enum opponent_kind opponent;
    enum opponent_kind after_script;    /* once a script is used up */
    unsigned long seed;
    int script[CELLS][2], script_len, script_next;
    unsigned rules;
    int time_limit_ms;
    int battle;                         /* two external players (see battle()) */
    int single_lines;                   /* player, opponent, after, move, rule: not with battle */
    int battle_lines;                   /* engine, match_time_ms, memory_bytes, time_tolerance_ms, folder: only with battle */
    int engine[2];                      /* A, B: a Gomocup engine (see engine_starts()) */
    long match_time_ms;                 /* the game's time, told to engines (0: none) */
    int tolerance_ms;                   /* an engine's time beyond the timeout_turn it is told */
    long long memory_bytes;             /* each player's memory, told to engines (0: none) */
    char folder[2][200];                /* A, B: an engine's own folder, told as INFO folder */
    int opening[CELLS][2], opening_len; /* moves on the board before two engines play on */
} game = { .opponent = OPP_RANDOM, .after_script = OPP_RANDOM, .seed = 1, .time_limit_ms = 1000 };

static int parse_opponent(const char *name, enum opponent_kind *kind)
{
    for (int k = 0; k <= OPP_SCRIPT; k++)
        if (strcmp(name, opponent_names[k]) == 0) {
            *kind = (enum opponent_kind)k;
            return 1;
        }
    return 0;
}

/* The case file: one setting a line, '#' starts a comment (format in
 * referees/README.md). Returns 0 with a message on stderr if it is wrong. */
static int read_case(const char *path)
{
    static const struct { const char *name; enum rule rule; } rule_names[] = {
        { "take_five", RULE_TAKE_FIVE }, { "block_four", RULE_BLOCK_FOUR },
        { "win", RULE_WIN }, { "not_lose", RULE_NOT_LOSE },
        { "extend_three", RULE_EXTEND_THREE }, { "renju", RULE_RENJU },
        { "win_in_two", RULE_WIN_IN_TWO }, { "block_win_in_two", RULE_BLOCK_WIN_IN_TWO },
    };
    FILE *f = fopen(path, "r");
    char line[256];
    int number = 0;

    if (!f) {
        fprintf(stderr, "referee: cannot open %s\n", path);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        char word[32], arg[32];
        unsigned long seed;
        int r, c, n, rest = 0;

        number++;
        line[strcspn(line, "#\n")] = '\0';
        n = sscanf(line, "%31s %31s", word, arg);
        if (n < 1)
            continue;
        int battle_only = !strcmp(word, "engine") || !strcmp(word, "match_time_ms")
                          || !strcmp(word, "memory_bytes") || !strcmp(word, "time_tolerance_ms")
                          || !strcmp(word, "folder") || !strcmp(word, "opening");
        game.battle_lines += battle_only;
        game.single_lines += !battle_only && strcmp(word, "battle") && strcmp(word, "time_limit_ms")
                             && !(strcmp(word, "rule") == 0 && n == 2 && strcmp(arg, "renju") == 0);
        if (strcmp(word, "battle") == 0 && n == 1) {
            game.battle = 1;
        } else if (strcmp(word, "engine") == 0 && n == 2 && (!strcmp(arg, "A") || !strcmp(arg, "B"))) {
            game.engine[arg[0] == 'B'] = 1;
        } else if (strcmp(word, "folder") == 0 && n == 2 && (!strcmp(arg, "A") || !strcmp(arg, "B"))
                   && sscanf(line, "%*s %*s %n", &rest) >= 0 && rest > 0 && line[rest]
                   && strlen(line + rest) < sizeof game.folder[0]) {
            strcpy(game.folder[arg[0] == 'B'], line + rest);     /* the rest of the line, blanks and all */
        } else if (strcmp(word, "opening") == 0 && sscanf(line, "%*s %d %d", &r, &c) == 2
                   && on_board(r, c) && game.opening_len < CELLS) {
            game.opening[game.opening_len][0] = r;
            game.opening[game.opening_len][1] = c;
            game.opening_len++;
        } else if (strcmp(word, "match_time_ms") == 0 && sscanf(arg, "%ld", &game.match_time_ms) == 1
                   && game.match_time_ms >= 0) {
            /* read */
        } else if (strcmp(word, "memory_bytes") == 0 && sscanf(arg, "%lld", &game.memory_bytes) == 1
                   && game.memory_bytes >= 0) {
            /* read */
        } else if (strcmp(word, "time_tolerance_ms") == 0 && sscanf(arg, "%d", &game.tolerance_ms) == 1
                   && game.tolerance_ms >= 0) {
            /* read */
        } else if (strcmp(word, "player") == 0 && n == 2 && (!strcmp(arg, "X") || !strcmp(arg, "O"))) {
            game.player = arg[0];
        } else if (strcmp(word, "opponent") == 0 && n == 2 && parse_opponent(arg, &game.opponent)) {
            if (sscanf(line, "%*s %*s %lu", &seed) == 1)
                game.seed = seed;
        } else if (strcmp(word, "after") == 0 && n == 2 && parse_opponent(arg, &game.after_script)
                   && game.after_script != OPP_SCRIPT) {
            if (sscanf(line, "%*s %*s %lu", &seed) == 1)
                game.seed = seed;
        } else if (strcmp(word, "move") == 0 && sscanf(line, "%*s %d %d", &r, &c) == 2
                   && on_board(r, c) && game.script_len < CELLS) {
            game.script[game.script_len][0] = r;
            game.script[game.script_len][1] = c;
            game.script_len++;
        } else if (strcmp(word, "time_limit_ms") == 0 && sscanf(arg, "%d", &n) == 1 && n > 0) {
            game.time_limit_ms = n;
        } else if (strcmp(word, "rule") == 0 && n == 2) {
            size_t k = 0;
            while (k < sizeof rule_names / sizeof rule_names[0] && strcmp(arg, rule_names[k].name))
                k++;
            if (k == sizeof rule_names / sizeof rule_names[0]) {
                fprintf(stderr, "referee: %s:%d: unknown rule '%s'\n", path, number, arg);
                fclose(f);
                return 0;
            }
            game.rules |= rule_names[k].rule;
        } else {
            fprintf(stderr, "referee: %s:%d: cannot read '%s'\n", path, number, line);
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    if (game.battle && game.single_lines) {
        fprintf(stderr, "referee: %s: 'battle' takes no player, opponent, after or move line, and"
                " no rule but renju\n", path);
        return 0;
    }
    if (game.opening_len && !(game.engine[0] && game.engine[1])) {
        fprintf(stderr, "referee: %s: opening lines need two engines (engine A, engine B): a"
                " lesson player cannot be given a position\n", path);
        return 0;
    }
    if (game.battle_lines && !game.battle) {
        fprintf(stderr, "referee: %s: engine, match_time_ms, memory_bytes, time_tolerance_ms and"
                " folder lines need 'battle'\n", path);
        return 0;
    }
    if (!game.player && !game.battle) {
        fprintf(stderr, "referee: %s: no 'player X' or 'player O' line\n", path);
        return 0;
    }
    return 1;
}

/* === Talking to the program === */

/* Bytes read from the program that are not yet a whole line. */
static char inbox[4 * MAX_LINE];
static size_t inbox_len;
/* The program wrote something after its stdin was closed (see program_stops). */
static int wrote_late;

enum reply { GOT_LINE, TIMED_OUT, CLOSED, TOO_LONG };

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}

/* The rest of a line longer than asked for is dropped, so that the next
 * line read is a whole one (clings' tags stay in step in battle mode). */
static int skipping;

/* The next line (without "\r\n", at most `max` characters), if it comes
 * before `deadline` (in now_ms() terms). Read with poll() and read(), not
 * stdio: stdio would wait for the line however long it takes. */
static enum reply read_reply(long deadline, char *line, size_t max)
{
    for (;;) {
        char *newline = memchr(inbox, '\n', inbox_len);
        if (skipping && newline) {
            inbox_len -= (size_t)(newline + 1 - inbox);
            memmove(inbox, newline + 1, inbox_len);
            skipping = 0;
            continue;
        }
        if (skipping) {
            inbox_len = 0;
        } else if (newline) {
            size_t len = (size_t)(newline - inbox);
            /* A line past the limit is too long as a whole, not cut to a move. */
            enum reply reply = len > max ? TOO_LONG : GOT_LINE;
            if (len > max)
                len = max;
            memcpy(line, inbox, len);
            line[len] = '\0';
            if (reply == GOT_LINE && len > 0 && line[len - 1] == '\r')
                line[len - 1] = '\0';
            inbox_len -= (size_t)(newline + 1 - inbox);
            memmove(inbox, newline + 1, inbox_len);
            return reply;
        } else if (inbox_len > max) {
            memcpy(line, inbox, max);
            line[max] = '\0';
            inbox_len = 0;
            skipping = 1;
            return TOO_LONG;
        }

        long left = deadline - now_ms();
        if (left <= 0)
            return TIMED_OUT;
        struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
        int ready = poll(&in, 1, (int)left);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return TIMED_OUT;

        ssize_t got = read(STDIN_FILENO, inbox + inbox_len, sizeof inbox - inbox_len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return CLOSED;      /* the program ended or closed its stdout */
        inbox_len += (size_t)got;
    }
}

/* A line as it can be shown in a one-line message: printable, short. */
static const char *shown(const char *line)
{
    static char out[48];
    size_t n = 0;

    for (; line[n] && n + 4 < sizeof out; n++)
        out[n] = (line[n] >= ' ' && line[n] <= '~') ? line[n] : '?';
    if (line[n])
        strcpy(out + n, "...");
    else
        out[n] = '\0';
    return out;
}

/* Two integers, blanks around them, `separator` between them (or blanks
 * only, for 0), nothing else. */
static int parse_pair(const char *line, char separator, int *first, int *second)
{
    char *end;
    long values[2];

    for (int k = 0; k < 2; k++) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (k == 1 && separator && *line++ != separator)
            return 0;
        while (*line == ' ' || *line == '\t')
            line++;
        if (!(*line == '-' || *line == '+' || (*line >= '0' && *line <= '9')))
            return 0;
        errno = 0;
        values[k] = strtol(line, &end, 10);
        if (end == line || errno == ERANGE || values[k] < INT_MIN || values[k] > INT_MAX)
            return 0;
        line = end;
    }
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line != '\0')
        return 0;
    *first = (int)values[0];
    *second = (int)values[1];
    return 1;
}

/* The lesson's "r c": the row, then the column. */
static int parse_move(const char *line, int *r, int *c)
{
    return parse_pair(line, 0, r, c);
}

/* Ignoring SIGPIPE, a write to a program that has gone fails quietly; the
 * next read then says it has gone. */
static void send_line(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

/* === The game === */

static int moves_played;                /* both sides */
static char transcript[CELLS][2 + 2 * 12];
static char team_message[256];
/* how often the rules had something to check */
static int offered_fives, offered_blocks, offered_threes, offered_wins_in_two, offered_stops;

static void say(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(team_message, sizeof team_message, format, args);
    va_end(args);
}

static void place(char who, int r, int c)
{
    board[r][c] = who;
    snprintf(transcript[moves_played], sizeof transcript[0], "%c %d %d", who, r, c);
    moves_played++;
}

/* Renju's rules, if the case plays them: which moves `who` may not play, and
 * what a five is (exactly five for black). */
static int renju_rules(void)
{
    return (game.rules & RULE_RENJU) != 0;
}

static enum renju_verdict forbidden_for(char who, int r, int c)
{
    return renju_rules() && who == 'X' ? renju_verdict(r, c) : RENJU_ALLOWED;
}

/* A stone of `who` on the empty cell (r, c) would make five. */
static int makes_five(char who, int r, int c)
{
    return renju_rules() && who == 'X' ? black_five_at(r, c) : longest_run(r, c, who) >= 5;
}

/* The move of one of the referee's strategies for `me`. Under renju, black's
 * forbidden cells are hidden from it for the move ('#': neither empty nor a
 * stone), so that it never plays one. */
static int strategy_move(enum opponent_kind kind, char me, int *r, int *c)
{
    static char hidden[SIZE][SIZE];
    int found;

    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            hidden[i][j] = board[i][j] == '.' && forbidden_for(me, i, j) != RENJU_ALLOWED;
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (hidden[i][j])
                board[i][j] = '#';
    switch (kind) {
    case OPP_PRIORITIES: found = priorities_move(me, r, c); break;
    case OPP_STRONG:     found = strong_move(me, r, c); break;
    default:             found = random_move(r, c); break;
    }
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (hidden[i][j])
                board[i][j] = '.';
    return found;
}

static int opponent_move(int *r, int *c)
{
    char me = other(game.player);
    enum opponent_kind kind = game.opponent;

    if (kind == OPP_SCRIPT) {
        while (game.script_next < game.script_len) {
            int *m = game.script[game.script_next++];
            if (board[m[0]][m[1]] == '.' && forbidden_for(me, m[0], m[1]) == RENJU_ALLOWED) {
                *r = m[0];
                *c = m[1];
                return 1;
            }
        }
        kind = game.after_script;
    }
    return strategy_move(kind, me, r, c);
}

/* The cells where `who` would make five now that `mover` may play: how
 * many, and the first. */
static int five_cells(char who, char mover, int first[2])
{
    int n = 0;

    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.' && makes_five(who, i, j) && forbidden_for(mover, i, j) == RENJU_ALLOWED) {
                if (n++ == 0) {
                    first[0] = i;
                    first[1] = j;
                }
            }
    return n;
}

/* The cells that extend a three of `who`: next to an end of an unbroken run
 * of exactly three, in its line (the run of four it would make has all its
 * other stones on one side). How many, and the first. */
static int three_ends(char who, int first[2])
{
    int n = 0;

    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++) {
            if (board[i][j] != '.' || forbidden_for(who, i, j) != RENJU_ALLOWED)
                continue;
            int extends = 0;
            for (int d = 0; d < 4 && !extends; d++)
                for (int sign = -1; sign <= 1 && !extends; sign += 2) {
                    int k = 1;
                    while (k <= 4 && on_board(i + sign * k * dirs[d][0], j + sign * k * dirs[d][1])
                           && board[i + sign * k * dirs[d][0]][j + sign * k * dirs[d][1]] == who)
                        k++;
                    extends = k - 1 == 3 && run_through(i, j, d, who) == 4;
                }
            if (extends && n++ == 0) {
                first[0] = i;
                first[1] = j;
            }
        }
    return n;
}

/* === Two moves deep: `rule win_in_two` and `rule block_win_in_two` ===
 * A move wins in two when, after it, its side has two cells that make five
 * (or one the other side may not play): the other side can stop one only.
 * Both rules apply when neither side can make five now (the other rules see
 * to that). The cells that matter are all near a stone: a five cell, and a
 * move that makes one, lie in a window of five holding four stones. */

/* Within two cells of a stone: the only cells where a move can make or stop
 * a five two moves on. */
static int near_stones(int r, int c)
{
    for (int i = r - 2; i <= r + 2; i++)
        for (int j = c - 2; j <= c + 2; j++)
            if (on_board(i, j) && board[i][j] != '.')
                return 1;
    return 0;
}

/* The cells where `who` would make five, on the four lines through (r, c),
 * within four of it: all of `who`'s five cells, if the position had none
 * before the stone on (r, c). Up to two are stored; how many there are. */
static int fives_through(char who, int r, int c, int cells[2][2])
{
    int n = 0;

    for (int d = 0; d < 4; d++)
        for (int k = -4; k <= 4; k++) {
            int nr = r + k * dirs[d][0], nc = c + k * dirs[d][1];
            if (k == 0 || !on_board(nr, nc) || board[nr][nc] != '.' || !makes_five(who, nr, nc))
                continue;
            int seen = 0;
            for (int m = 0; m < n && m < 2; m++)
                seen |= cells[m][0] == nr && cells[m][1] == nc;
            if (seen)
                continue;
            if (n < 2) {
                cells[n][0] = nr;
                cells[n][1] = nc;
            }
            n++;
        }
    return n;
}

/* `who` has no five cell; would its stone on the empty (r, c) leave it a five
 * the other side cannot stop? */
static int double_threat(char who, int r, int c)
{
    int cells[2][2], n;

    if (forbidden_for(who, r, c) != RENJU_ALLOWED)
        return 0;
    board[r][c] = who;
    n = fives_through(who, r, c, cells);
    board[r][c] = '.';
    return n >= 2 || (n == 1 && forbidden_for(other(who), cells[0][0], cells[0][1]) != RENJU_ALLOWED);
}

/* A move of `who` that wins in two, if there is one (neither side having a
 * five cell now): 1 and the cell, else 0. */
static int win_in_two(char who, int cell[2])
{
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.' && near_stones(i, j) && double_threat(who, i, j)) {
                cell[0] = i;
                cell[1] = j;
                return 1;
            }
    return 0;
}

/* After `me`'s move on the empty (r, c) (neither side having a five cell
 * before it), can the other side still win in two? Only by a move that
 * leaves `me` no five cell (it must block the one (r, c) made, if any) and
 * makes a double threat of its own. */
static int still_wins_in_two(char me, int r, int c)
{
    char opp = other(me);
    int mine[2][2], found = 0;

    board[r][c] = me;
    int my_fives = fives_through(me, r, c, mine);
    for (int i = 0; i < SIZE && !found; i++)
        for (int j = 0; j < SIZE && !found; j++) {
            if (board[i][j] != '.' || !near_stones(i, j))
                continue;
            int blocks_all = my_fives == 0 || (my_fives == 1 && mine[0][0] == i && mine[0][1] == j);
            found = blocks_all && double_threat(opp, i, j);
        }
    board[r][c] = '.';
    return found;
}

/* A move of `me` after which the other side cannot win in two, if there is
 * one: 1 and the cell, else 0. */
static int stops_win_in_two(char me, int cell[2])
{
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.' && near_stones(i, j) && forbidden_for(me, i, j) == RENJU_ALLOWED
                && !still_wins_in_two(me, i, j)) {
                cell[0] = i;
                cell[1] = j;
                return 1;
            }
    return 0;
}

/* One move as read, checked the same way in both modes: a line of "r c",
 * on the board, on an empty cell, in time. */
enum fault { NO_FAULT, TIMED_OUT_MOVE, ENDED, GARBAGE, OFF_BOARD, OCCUPIED, FORBIDDEN };

static enum fault check_move(enum reply got, const char *line,
                             int (*parse)(const char *, int *, int *), int *r, int *c)
{
    switch (got) {
    case TIMED_OUT: return TIMED_OUT_MOVE;
    case CLOSED:    return ENDED;
    case TOO_LONG:  return GARBAGE;
    case GOT_LINE:  break;
    }
    if (!parse(line, r, c))
        return GARBAGE;
    if (!on_board(*r, *c))
        return OFF_BOARD;
    if (board[*r][*c] != '.')
        return OCCUPIED;
    return NO_FAULT;
}

/* The words for a fault (ENDED is said differently by each mode). */
static void describe_fault(char *out, size_t size, enum fault fault, const char *line,
                           int r, int c, int number, long allowed)
{
    switch (fault) {
    case TIMED_OUT_MOVE:
        snprintf(out, size, "no move within %ld ms (move %d)", allowed, number);
        break;
    case GARBAGE:
        snprintf(out, size, "garbage line '%s' at move %d", shown(line), number);
        break;
    case OFF_BOARD:
        snprintf(out, size, "illegal move %d %d (off the board) on move %d", r, c, number);
        break;
    case OCCUPIED:
        snprintf(out, size, "illegal move %d %d (occupied by %c) on move %d", r, c, board[r][c], number);
        break;
    case FORBIDDEN:     /* black's, under renju: the board is as it was */
        snprintf(out, size, "illegal move %d %d (forbidden: %s) on move %d", r, c,
                 renju_names[renju_verdict(r, c)], number);
        break;
    default:
        snprintf(out, size, "ended before the game did, at move %d", number);
        break;
    }
}

/* The program's move, read and checked: 1 if the game goes on, else 0 with
 * team_message saying why not. */
static int program_move(int *move_r, int *move_c)
{
    char me = game.player, line[MAX_LINE + 1];
    int own_five[2], their_five[2], r = -1, c = -1;
    int can_win = five_cells(me, me, own_five);
    int must_block = five_cells(other(me), me, their_five);
    int own_three[2] = { -1, -1 }, can_extend = three_ends(me, own_three);
    int quiet = !can_win && !must_block;        /* no five to make or to stop */
    int winning[2] = { -1, -1 }, their_win[2] = { -1, -1 }, stopping[2] = { -1, -1 };
    int can_win_in_two = quiet && (game.rules & RULE_WIN_IN_TWO) && win_in_two(me, winning);
    int must_stop = quiet && (game.rules & RULE_BLOCK_WIN_IN_TWO) && win_in_two(other(me), their_win)
                    && stops_win_in_two(me, stopping);
    int number = moves_played + 1;
    long allowed = game.time_limit_ms + (number <= 2 ? START_UP_MS : 0);

    enum fault fault = check_move(read_reply(now_ms() + allowed, line, MAX_LINE), line, parse_move, &r, &c);
    if (fault == NO_FAULT && forbidden_for(me, r, c) != RENJU_ALLOWED)
        fault = FORBIDDEN;

    if (fault == ENDED) {
        if (inbox_len > 0) {
            inbox[inbox_len < MAX_LINE ? inbox_len : MAX_LINE] = '\0';
            say("your program ended after '%s' with no newline, at move %d: a move is a whole line",
                shown(inbox), number);
        } else {
            say("your program ended (or closed its stdout) before the game did, at move %d", number);
        }
        return 0;
    }
    if (fault != NO_FAULT) {
        describe_fault(team_message, sizeof team_message, fault, line, r, c, number, allowed);
        if (fault == GARBAGE)
            snprintf(team_message + strlen(team_message), sizeof team_message - strlen(team_message),
                     ": a move is \"r c\"");
        return 0;
    }

    int took_five = makes_five(me, r, c);
    int blocked = makes_five(other(me), r, c);
    int made_four = longest_run(r, c, me) == 4;
    int won_in_two = can_win_in_two && double_threat(me, r, c);
    int stopped = must_stop && !still_wins_in_two(me, r, c);
    offered_fives += can_win > 0;
    offered_wins_in_two += can_win_in_two;
    offered_stops += must_stop;
    offered_blocks += !can_win && must_block > 0;
    offered_threes += !can_win && !must_block && can_extend > 0;
    place(me, r, c);
    *move_r = r;
    *move_c = c;

    if ((game.rules & RULE_TAKE_FIVE) && can_win && !took_five) {
        say("move %d: %d %d makes five for you, but you played %d %d",
            number, own_five[0], own_five[1], r, c);
        return 0;
    }
    if ((game.rules & RULE_BLOCK_FOUR) && !can_win && must_block && !blocked) {
        say("move %d: %c makes five at %d %d next; you played %d %d instead of blocking",
            number, other(me), their_five[0], their_five[1], r, c);
        return 0;
    }
    if ((game.rules & RULE_EXTEND_THREE) && !can_win && !must_block && can_extend && !made_four) {
        say("move %d: %d %d makes a four of your three, but you played %d %d",
            number, own_three[0], own_three[1], r, c);
        return 0;
    }
    if (can_win_in_two && !won_in_two) {
        say("move %d: %d %d wins in two (after it two cells make five for you), but you played %d %d",
            number, winning[0], winning[1], r, c);
        return 0;
    }
    if (must_stop && !stopped) {
        say("move %d: %c wins in two with %d %d next (two cells would make five); you played %d %d,"
            " and %d %d would have stopped it",
            number, other(me), their_win[0], their_win[1], r, c, stopping[0], stopping[1]);
        return 0;
    }
    return 1;
}

/* After the game: closing the program's stdin tells it the game is over;
 * it must then stop within `grace_ms`. Whatever it writes meanwhile is read
 * and dropped. */
static int program_stops(long grace_ms)
{
    char line[MAX_LINE + 1];
    long deadline = now_ms() + grace_ms;

    fclose(stdout);
    for (;;) {
        switch (read_reply(deadline, line, MAX_LINE)) {
        case GOT_LINE:
        case TOO_LONG:
            wrote_late = 1;
            inbox_len = 0;
            continue;
        case CLOSED:
            wrote_late |= inbox_len > 0;
            return 1;
        case TIMED_OUT:
            return 0;
        }
    }
}

static int write_feedback(const char *dir, const char *name, const char *text)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    return fclose(f) == 0;
}

static const char *result_words(char winner)
{
    if (!winner)
        return "the game was a draw";
    return winner == game.player ? "you won" : "you lost";
}

/* teammessage.txt (team_message), judgemessage.txt (`details`, `len`
 * characters so far, then the last board) and moves.txt; both modes. */
static int write_game(const char *dir, char details[2048], int len)
{
    char moves[CELLS * sizeof transcript[0] + 1] = "";

    for (int i = 0; i < SIZE && len < 2048; i++)
        len += snprintf(details + len, 2048 - (size_t)len, "%2d %.*s\n", i, SIZE, board[i]);
    for (int i = 0; i < moves_played; i++) {
        strcat(moves, transcript[i]);
        strcat(moves, "\n");
    }
    char message[sizeof team_message + 1];
    snprintf(message, sizeof message, "%s\n", team_message);
    if (!write_feedback(dir, "teammessage.txt", message)
        || !write_feedback(dir, "judgemessage.txt", details)
        || !write_feedback(dir, "moves.txt", moves)) {
        fprintf(stderr, "referee: cannot write to %s\n", dir);
        return 0;
    }
    return 1;
}

/* === Battle mode: two external players, A plays X and B plays O ===
 * clings runs both and routes their lines through our stdin and stdout,
 * tagged: we write "turn A", "to A <text>" and "close A", we read "A <text>"
 * and "eof A" (protocol in referees/README.md). Index 0 is A (X), 1 is B (O).
 *
 * The game is judged in its own order, never by which player's line came
 * first: each player's output is a queue of lines read only when the game
 * needs that player (its move), and its end (eof) is seen only once its
 * queue is empty. Lines arrive from both players at any time and are kept
 * until then; a player makes at most (CELLS + 1) / 2 moves, so lines past
 * QUEUED_LINES are never needed and are dropped. */

#define QUEUED_LINES (CELLS / 2 + 8)

struct queue {
    char lines[QUEUED_LINES][MAX_LINE + 1];
    enum reply kinds[QUEUED_LINES];     /* GOT_LINE, or TOO_LONG (cut) */
    int count, taken;
    int ended;                          /* its eof has come */
};

static struct queue queues[2];
static int turn_given = -1;             /* the player clings lets run */

static int engine_chatter(const char *text, int started);
static void note_chatter(int side, int lines, enum reply got, const char *text);

static char colour_of(int side)
{
    return side ? 'O' : 'X';
}

static char tag_of(int side)
{
    return side ? 'B' : 'A';
}

/* clings' next line, kept in its player's queue (or its eof noted). A line
 * clings should not send is the referee's error: exit 1. */
static enum reply receive(long deadline)
{
    char line[MAX_LINE + 3];
    enum reply got = read_reply(deadline, line, MAX_LINE + 2);
    int side;
    const char *text;

    if (got == TIMED_OUT)
        return got;
    if (got == CLOSED) {
        fprintf(stderr, "referee: clings ended our input before both players' eof\n");
        exit(REFEREE_ERROR);
    }
    if (got == GOT_LINE && strncmp(line, "eof ", 4) == 0 && (line[4] == 'A' || line[4] == 'B')
        && line[5] == '\0') {
        side = line[4] == 'B';
        text = NULL;
    } else if ((line[0] == 'A' || line[0] == 'B') && (line[1] == ' ' || line[1] == '\0')) {
        side = line[0] == 'B';
        text = line + (line[1] ? 2 : 1);
    } else {
        fprintf(stderr, "referee: cannot read clings' line '%s'\n", shown(line));
        exit(REFEREE_ERROR);
    }
    struct queue *q = &queues[side];
    if (q->ended) {
        fprintf(stderr, "referee: clings sent '%s' after 'eof %c'\n", shown(line), tag_of(side));
        exit(REFEREE_ERROR);
    }
    if (!text) {
        q->ended = 1;
    } else if (game.engine[side] && engine_chatter(text, q->count > 0)) {
        note_chatter(side, q->count, got, text);
    } else if (q->count < QUEUED_LINES) {
        snprintf(q->lines[q->count], sizeof q->lines[0], "%s", text);
        q->kinds[q->count++] = got;
    }
    return got;
}

/* The next line `side` wrote, in its own order: one that came earlier, else
 * the next one to come before `deadline`. CLOSED once its output has ended. */
static enum reply next_line_of(int side, long deadline, const char **text)
{
    struct queue *q = &queues[side];

    while (q->taken == q->count && !q->ended)
        if (receive(deadline) == TIMED_OUT)
            return TIMED_OUT;
    if (q->taken == q->count)
        return CLOSED;
    *text = q->lines[q->taken];
    return q->kinds[q->taken++];
}

/* Only `side` runs from now on (clings stops the other's processes), so
 * that its time to move is its own. */
static void give_turn(int side)
{
    if (turn_given != side)
        send_line("turn %c", tag_of(side));
    turn_given = side;
}

/* === Battle mode: a player that is a Gomocup engine ===
 * A player marked `engine A` in the case speaks the Gomocup ("pbrain")
 * protocol of piskvork and the Gomocup managers instead of the lesson's:
 * START 15 answered by OK, the limits as INFO lines, BEGIN (X's first move)
 * or TURN x,y (the opponent's move) answered by its own move x,y, and END
 * when the game is over. x is the column and y the row: the lesson's "r c"
 * is the engine's "c,r". Only the translation is here; battle() judges both
 * kinds of player alike. */

/* The lines an engine writes for a human (MESSAGE, DEBUG, and ERROR once it
 * has answered START: what it cannot cope with, a memory limit too small say,
 * and plays on as managers let it): not for the game, kept for the record. */
static int engine_chatter(const char *text, int started)
{
    static const char *const words[] = { "MESSAGE", "DEBUG", "ERROR" };

    for (size_t k = 0; k < sizeof words / sizeof words[0] - !started; k++) {
        size_t n = strlen(words[k]);
        if (strncmp(text, words[k], n) == 0 && (text[n] == ' ' || text[n] == '\0'))
            return 1;
    }
    return 0;
}

/* The chatter kept for chatter.txt; more is counted, not kept. */
#define CHATTER_LINES 64

static struct {
    char colour;
    int move;           /* the move the engine was to make next */
    char text[MAX_LINE + 4];
} chatter[CHATTER_LINES];
static int chatter_count, chatter_dropped;

/* A line of chatter from `side`, which had written `lines` lines that count
 * (its OK to START, then its moves): its place in the game does not depend
 * on when it came, only on the engine's own order. */
static void note_chatter(int side, int lines, enum reply got, const char *text)
{
    if (chatter_count == CHATTER_LINES) {
        chatter_dropped++;
        return;
    }
    chatter[chatter_count].colour = colour_of(side);
    chatter[chatter_count].move = 2 * (lines - 1) + 1 + side;
    snprintf(chatter[chatter_count].text, sizeof chatter[0].text, "%s%s", text,
             got == TOO_LONG ? "..." : "");
    chatter_count++;
}

/* chatter.txt: "X 7 MESSAGE ..." a line (the colour, the move it came
 * before), then "dropped N" if there was more. */
static int write_chatter(const char *dir)
{
    static char text[CHATTER_LINES * (MAX_LINE + 16) + 32];
    size_t len = 0;

    for (int k = 0; k < chatter_count; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%c %d %s\n", chatter[k].colour,
                                chatter[k].move, chatter[k].text);
    if (chatter_dropped)
        snprintf(text + len, sizeof text - len, "dropped %d\n", chatter_dropped);
    return write_feedback(dir, "chatter.txt", text);
}

/* An engine's move "x,y": the column, then the row. */
static int parse_engine_move(const char *line, int *r, int *c)
{
    return parse_pair(line, ',', c, r);
}

static long game_started_ms;

/* INFO time_left before each move asked of an engine, when the game has a limit. */
static void tell_time_left(int side)
{
    if (game.match_time_ms > 0) {
        long left = game.match_time_ms - (now_ms() - game_started_ms);
        send_line("to %c INFO time_left %ld", tag_of(side), left > 0 ? left : 0);
    }
}

/* START 15, to be answered by OK within a move's time and the start-up's,
 * then the game's limits and rule as INFO lines. 0, with `reason` said, if
 * the engine did not answer OK. */
static int engine_starts(int side, char *reason, size_t size)
{
    long allowed = game.time_limit_ms + game.tolerance_ms + START_UP_MS;
    const char *text = "";

    give_turn(side);
    send_line("to %c START %d", tag_of(side), SIZE);
    enum reply got = next_line_of(side, now_ms() + allowed, &text);
    if (got == GOT_LINE && strcmp(text, "OK") == 0) {
        send_line("to %c INFO timeout_turn %d", tag_of(side), game.time_limit_ms);
        send_line("to %c INFO timeout_match %ld", tag_of(side), game.match_time_ms);
        send_line("to %c INFO max_memory %lld", tag_of(side), game.memory_bytes);
        send_line("to %c INFO game_type 1", tag_of(side));     /* against a program */
        /* Gomocup's rule: 0 five or more wins, 4 renju */
        send_line("to %c INFO rule %d", tag_of(side), renju_rules() ? 4 : 0);
        if (game.folder[side][0])
            send_line("to %c INFO folder %s", tag_of(side), game.folder[side]);
        return 1;
    }
    if (got == TIMED_OUT)
        snprintf(reason, size, "%c: no OK to START %d within %ld ms", colour_of(side), SIZE, allowed);
    else if (got == CLOSED)
        snprintf(reason, size, "%c ended before it answered START %d", colour_of(side), SIZE);
    else
        snprintf(reason, size, "%c: answered START %d with '%s', not OK", colour_of(side), SIZE, shown(text));
    return 0;
}

/* The move (r, c) passed on to `side`, in its protocol. */
static void pass_move(int side, int r, int c)
{
    if (game.engine[side]) {
        tell_time_left(side);
        send_line("to %c TURN %d,%d", tag_of(side), c, r);
    } else {
        send_line("to %c %d %d", tag_of(side), r, c);
    }
}

/* The position so far to an engine, as BOARD: its own stones x,y,1, the
 * opponent's x,y,2, in the order played, then DONE. */
static void tell_board(int side)
{
    tell_time_left(side);
    send_line("to %c BOARD", tag_of(side));
    for (int k = 0; k < moves_played; k++) {
        char who;
        int r, c;
        sscanf(transcript[k], "%c %d %d", &who, &r, &c);
        send_line("to %c %d,%d,%d", tag_of(side), c, r, who == colour_of(side) ? 1 : 2);
    }
    send_line("to %c DONE", tag_of(side));
}

/* The opening's moves on the board; 0, with a message on stderr, if one of
 * them is not a move the game allows there (the book is the referee's case). */
static int place_opening(void)
{
    for (int k = 0; k < game.opening_len; k++) {
        char who = k % 2 ? 'O' : 'X';
        int r = game.opening[k][0], c = game.opening[k][1];
        if (board[r][c] != '.' || forbidden_for(who, r, c) != RENJU_ALLOWED || makes_five(who, r, c)) {
            fprintf(stderr, "referee: opening move %d (%d %d) is occupied, forbidden or a five\n", k + 1, r, c);
            return 0;
        }
        place(who, r, c);
    }
    return 1;
}

/* An engine's illegal move, in its own terms and the lesson's. */
static void describe_engine_fault(char *out, size_t size, enum fault fault, int r, int c, int number)
{
    if (fault == OCCUPIED)
        snprintf(out, size, "illegal move %d,%d (column %d, row %d: occupied by %c) on move %d",
                 c, r, c, r, board[r][c], number);
    else if (fault == FORBIDDEN)
        snprintf(out, size, "illegal move %d,%d (column %d, row %d: forbidden: %s) on move %d",
                 c, r, c, r, renju_names[renju_verdict(r, c)], number);
    else
        snprintf(out, size, "illegal move %d,%d (column %d, row %d: off the board) on move %d",
                 c, r, c, r, number);
}

/* The five cells of who's line through (r, c), in line order: five in a row
 * that include (r, c), the line may be longer. */
static void winning_five(int r, int c, char who, int five[5][2])
{
    for (int d = 0; d < 4; d++) {
        int dr = dirs[d][0], dc = dirs[d][1], back = 0;

        if (run_through(r, c, d, who) < 5)
            continue;
        while (on_board(r - (back + 1) * dr, c - (back + 1) * dc)
               && board[r - (back + 1) * dr][c - (back + 1) * dc] == who)
            back++;
        int start = back > 4 ? back - 4 : 0;    /* the window holds (r, c) */
        for (int k = 0; k < 5; k++) {
            five[k][0] = r + (start + k - back) * dr;
            five[k][1] = c + (start + k - back) * dc;
        }
        return;
    }
}

/* One game between A and B, judged: always 42 (the result is in
 * result.txt), 1 on the referee's own error. */
static int battle(const char *dir)
{
    char reason[512], winner = 0, turn = 'X';
    int five[5][2], made_five = 0, asked[2] = { 0, 0 };

    game_started_ms = now_ms();
    for (int side = 0; side < 2 && !winner; side++)
        if (game.engine[side] && !engine_starts(side, reason, sizeof reason))
            winner = colour_of(!side);
    for (int side = 0; side < 2 && !winner; side++)
        if (!game.engine[side])
            send_line("to %c %c", tag_of(side), colour_of(side));
    /* After an opening, each engine is given the position (BOARD) when it is first to
     * move: the side to move at once, the other when its turn comes. */
    if (!winner && game.opening_len) {
        if (!place_opening())
            return 1;
        turn = game.opening_len % 2 ? 'O' : 'X';
        tell_board(turn == 'O');
    } else if (!winner && game.engine[0]) {
        tell_time_left(0);
        send_line("to A BEGIN");
    }
    while (!winner) {
        int mover = turn == 'O', number = moves_played + 1, r = -1, c = -1;
        /* each side's first move has a second more, for its start-up */
        long allowed = game.time_limit_ms + (game.engine[mover] ? game.tolerance_ms : 0)
                       + (asked[mover] ? 0 : START_UP_MS);
        const char *text = "";

        asked[mover] = 1;

        give_turn(mover);
        enum reply got = next_line_of(mover, now_ms() + allowed, &text);
        enum fault fault = check_move(got, text, game.engine[mover] ? parse_engine_move : parse_move, &r, &c);
        if (fault == NO_FAULT && forbidden_for(turn, r, c) != RENJU_ALLOWED)
            fault = FORBIDDEN;
        if (fault == ENDED) {
            snprintf(reason, sizeof reason, "%c ended before the game did, at move %d", turn, number);
        } else if (game.engine[mover] && (fault == OCCUPIED || fault == OFF_BOARD || fault == FORBIDDEN)) {
            char words[256];
            describe_engine_fault(words, sizeof words, fault, r, c, number);
            snprintf(reason, sizeof reason, "%c: %s", turn, words);
        } else if (fault != NO_FAULT) {
            char words[256];
            describe_fault(words, sizeof words, fault, text, r, c, number, allowed);
            snprintf(reason, sizeof reason, "%c: %s", turn, words);
        }
        if (fault != NO_FAULT) {
            winner = other(turn);
            break;
        }
        place(turn, r, c);
        if (longest_run(r, c, turn) >= 5) {
            winner = turn;
            made_five = 1;
            winning_five(r, c, turn, five);
            snprintf(reason, sizeof reason, "%c made five", turn);
            break;
        }
        if (moves_played == CELLS) {
            snprintf(reason, sizeof reason, "draw: the board is full");
            break;
        }
        if (game.opening_len && !asked[!mover])
            tell_board(!mover);
        else
            pass_move(!mover, r, c);
        turn = other(turn);
    }
    /* Closing a player's stdin ends the game for it; it must then stop.
     * What comes meanwhile is dropped. */
    for (int side = 0; side < 2; side++) {
        if (game.engine[side])
            send_line("to %c END", tag_of(side));
        send_line("close %c", tag_of(side));
    }
    long deadline = now_ms() + STOP_GRACE_MS;
    while (!(queues[0].ended && queues[1].ended) && receive(deadline) != TIMED_OUT)
        continue;
    for (int k = 0; k < 2; k++)
        if (!queues[k].ended)
            snprintf(reason + strlen(reason), sizeof reason - strlen(reason),
                     "; %c did not stop when its input ended", colour_of(k));

    char result[sizeof reason + 128];
    int len = snprintf(result, sizeof result, "winner %s\nreason %s\n",
                       winner == 'X' ? "X" : winner == 'O' ? "O" : "none", reason);
    if (made_five) {
        len += snprintf(result + len, sizeof result - (size_t)len, "five");
        for (int k = 0; k < 5; k++)
            len += snprintf(result + len, sizeof result - (size_t)len, " %d %d", five[k][0], five[k][1]);
        snprintf(result + len, sizeof result - (size_t)len, "\n");
    }
    const char *plural = moves_played == 1 ? "" : "s";
    if (winner)
        say("%c won in %d move%s: %s", winner, moves_played, plural, reason);
    else    /* the reason says "draw: ..." */
        say("a draw in %d move%s: %s", moves_played, plural, reason + strlen("draw: "));

    char details[2048];
    len = snprintf(details, sizeof details,
                   "%s\nbattle: A plays X, B plays O, time limit %d ms, %d moves\n%s",
                   team_message, game.time_limit_ms, moves_played, result);
    if (!write_feedback(dir, "result.txt", result) || !write_chatter(dir)) {
        fprintf(stderr, "referee: cannot write to %s\n", dir);
        return REFEREE_ERROR;
    }
    return write_game(dir, details, len) ? ACCEPTED : REFEREE_ERROR;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s INPUT_FILE ANSWER_FILE FEEDBACK_DIR\n", argv[0]);
        return REFEREE_ERROR;
    }
    if (!read_case(argv[1]))
        return REFEREE_ERROR;
    signal(SIGPIPE, SIG_IGN);
    memset(board, '.', sizeof board);
    if (game.battle)
        return battle(argv[3]);
    seed_random(game.seed);

    char me = game.player, turn = 'X', winner = 0;
    int fault = 0;              /* the program broke the protocol or a rule */
    int timed_out = 0;

    send_line("%c", me);
    for (;;) {
        int r, c;

        if (turn == me) {
            if (!program_move(&r, &c)) {
                fault = 1;
                timed_out = strncmp(team_message, "no move within", 14) == 0;
                break;
            }
        } else {
            if (!opponent_move(&r, &c)) {
                fprintf(stderr, "referee: the opponent found no move\n");
                return REFEREE_ERROR;
            }
            place(turn, r, c);
        }
        if (longest_run(r, c, turn) >= 5) {
            winner = turn;
            break;
        }
        if (moves_played == CELLS)
            break;
        if (turn != me)
            send_line("%d %d", r, c);
        turn = other(turn);
    }

    int stopped = program_stops(timed_out ? LATE_LINE_MS : STOP_GRACE_MS);
    int accepted = 0;
    const char *opponent = opponent_names[game.opponent];

    if (fault) {
        if (timed_out && wrote_late)
            snprintf(team_message + strlen(team_message), sizeof team_message - strlen(team_message),
                     "; a line came after the game ended: if you print your move in time, it waits"
                     " in stdout's buffer: fflush(stdout) after each move");
    } else if (!stopped) {
        say("%s in %d moves, but your program did not stop when its input ended"
            " (scanf returns EOF: exit then)", result_words(winner), moves_played);
    } else if ((game.rules & RULE_WIN) && winner != me) {
        say("%s against %s in %d moves; this case needs a win", result_words(winner), opponent, moves_played);
    } else if ((game.rules & RULE_NOT_LOSE) && winner == other(me)) {
        say("you lost against %s in %d moves; this case needs a win or a draw", opponent, moves_played);
    } else {
        accepted = 1;
        say("%s against %s in %d moves", result_words(winner), opponent, moves_played);
        if ((game.rules & RULE_TAKE_FIVE))
            snprintf(team_message + strlen(team_message), sizeof team_message - strlen(team_message),
                     offered_fives ? "; you took your five" : "; you never had a five to take");
        if ((game.rules & RULE_BLOCK_FOUR))
            snprintf(team_message + strlen(team_message), sizeof team_message - strlen(team_message),
                     offered_blocks ? "; you blocked every four" : "; no four of %c's needed blocking",
                     other(me));
        if ((game.rules & RULE_EXTEND_THREE))
            snprintf(team_message + strlen(team_message), sizeof team_message - strlen(team_message),
                     offered_threes ? "; you extended your threes" : "; you never had a three to extend");
        if ((game.rules & RULE_WIN_IN_TWO))
            snprintf(team_message + strlen(team_message), sizeof team_message - strlen(team_message),
                     offered_wins_in_two ? "; you took every win in two" : "; you never had a win in two");
        if ((game.rules & RULE_BLOCK_WIN_IN_TWO))
            snprintf(team_message + strlen(team_message), sizeof team_message - strlen(team_message),
                     offered_stops ? "; you stopped every win in two of %c's"
                                   : "; %c never had a win in two to stop", other(me));
    }

    /* The details, for the teacher: the case, the verdict, the last board. */
    char details[2048];
    int len = snprintf(details, sizeof details,
                       "%s\nplayer %c, opponent %s (seed %lu), %d moves, %s\n",
                       team_message, me, opponent, game.seed, moves_played,
                       fault ? "stopped by the referee" : result_words(winner));
    if (!write_game(argv[3], details, len))
        return REFEREE_ERROR;
    return accepted ? ACCEPTED : WRONG_ANSWER;
}

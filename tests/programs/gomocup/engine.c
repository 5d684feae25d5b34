/* A small Gomocup ("pbrain") engine for clings' tests: it speaks the piskvork protocol on
 * stdin and stdout, one command a line. START n (OK, or ERROR for a size it cannot play),
 * RESTART, BEGIN, TURN x,y, BOARD ... DONE (a new position: x,y,1 its own stones, x,y,2
 * the opponent's), TAKEBACK x,y, INFO (ignored), ABOUT, END; anything else is UNKNOWN.
 * Coordinates are x,y: x the column, y the row. Before each move it says MESSAGE and
 * DEBUG lines (one with a control character), which a manager logs; as Rapfi does, it
 * answers INFO max_memory and INFO time_left with ERROR lines (a table it could not
 * allocate, a command it does not know), which a manager logs too, and plays on.
 *
 * Built with -DWHOLE_TURN (and -pthread), it behaves as strong engines do: it sizes its
 * table to the max_memory it is told less 32 MiB for itself and fills it (ERROR if it
 * cannot allocate it), and two threads spin for the whole timeout_turn it was told before
 * it answers, the second with a 64 MiB stack for a deep search (ERROR if it cannot start).
 *
 * It plays five if it can, else blocks the opponent's five, else the empty cell with the
 * longest lines through it (its own counted twice), the one nearest the centre on ties:
 * deterministic. */
#ifdef WHOLE_TURN
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef WHOLE_TURN
#include <pthread.h>
#include <time.h>
#endif

#define MAX_SIZE 32

static int size, board[MAX_SIZE][MAX_SIZE]; /* 0 empty, 1 its own, 2 the opponent's */

static void reset(int n)
{
    size = n;
    memset(board, 0, sizeof board);
}

static int inside(int x, int y)
{
    return x >= 0 && y >= 0 && x < size && y < size;
}

/* The stones of `who` in a row through (x, y) along (dx, dy), (x, y) counted as one. */
static int run(int x, int y, int dx, int dy, int who)
{
    int n = 1;
    for (int k = 1; inside(x + k * dx, y + k * dy) && board[y + k * dy][x + k * dx] == who; k++)
        n++;
    for (int k = 1; inside(x - k * dx, y - k * dy) && board[y - k * dy][x - k * dx] == who; k++)
        n++;
    return n;
}

static int longest(int x, int y, int who)
{
    static const int dirs[4][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };
    int best = 0;
    for (int d = 0; d < 4; d++) {
        int n = run(x, y, dirs[d][0], dirs[d][1], who);
        if (n > best)
            best = n;
    }
    return best;
}

#ifdef WHOLE_TURN
static long timeout_turn = 1000;
static volatile int thinking;

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}

static void *spin(void *unused)
{
    (void)unused;
    while (thinking)
        continue;
    return NULL;
}

static char *table;

/* The table, sized to the memory told, as Rapfi sizes its hash table. */
static void allocate_table(long long max_memory)
{
    size_t bytes = max_memory > (32 << 20) ? (size_t)(max_memory - (32 << 20)) : 0;
    free(table);
    table = malloc(bytes);
    if (table)
        memset(table, 1, bytes);
    else
        printf("ERROR Failed to allocate %lld KB for transposition table\n", (long long)bytes / 1024);
}

/* Both threads busy until the turn told is used up, counted from the command. */
static void think(long since)
{
    pthread_t helper;
    pthread_attr_t deep;
    pthread_attr_init(&deep);
    pthread_attr_setstacksize(&deep, 64 << 20);
    thinking = 1;
    int started = pthread_create(&helper, &deep, spin, NULL) == 0;
    if (!started)
        printf("ERROR Failed to start a search thread\n");
    while (now_ms() - since < timeout_turn)
        continue;
    thinking = 0;
    if (started)
        pthread_join(helper, NULL);
}
#endif

static void play(void)
{
    long best = -1;
    int bx = -1, by = -1, stones = 0;

    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            stones += board[y][x] != 0;
    printf("MESSAGE thinking about %d stones\n", stones);
    printf("DEBUG size %d \x1b[2J\n", size);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            if (board[y][x])
                continue;
            int own = longest(x, y, 1), theirs = longest(x, y, 2);
            long score = own >= 5 ? 1000000 : theirs >= 5 ? 100000 : 2 * own * own + theirs * theirs;
            long centre = labs((long)(2 * x - size + 1)) + labs((long)(2 * y - size + 1));
            score = score * 100 - centre;
            if (score > best) {
                best = score;
                bx = x;
                by = y;
            }
        }
    if (bx < 0) {
        printf("ERROR the board is full\n");
    } else {
        board[by][bx] = 1;
        printf("%d,%d\n", bx, by);
    }
    fflush(stdout);
}

int main(void)
{
    char line[256];
    int x, y, who, n;
#ifdef WHOLE_TURN
    long long max_memory;
#endif

    reset(15);
    while (fgets(line, sizeof line, stdin)) {
#ifdef WHOLE_TURN
        long since = now_ms();
#define play() (think(since), play())
#endif
        line[strcspn(line, "\r\n")] = '\0';
        if (sscanf(line, "START %d", &n) == 1) {
            if (n < 5 || n > MAX_SIZE) {
                printf("ERROR unsupported size %d\n", n);
            } else {
                reset(n);
                printf("OK\n");
            }
        } else if (strcmp(line, "RESTART") == 0) {
            reset(size);
            printf("OK\n");
        } else if (strcmp(line, "BEGIN") == 0) {
            play();
        } else if (sscanf(line, "TURN %d,%d", &x, &y) == 2 && inside(x, y)) {
            board[y][x] = 2;
            play();
        } else if (strcmp(line, "BOARD") == 0) {
            reset(size);
            while (fgets(line, sizeof line, stdin) && strncmp(line, "DONE", 4) != 0)
                if (sscanf(line, "%d,%d,%d", &x, &y, &who) == 3 && inside(x, y))
                    board[y][x] = who == 2 ? 2 : 1;
            play();
        } else if (sscanf(line, "TAKEBACK %d,%d", &x, &y) == 2 && inside(x, y)) {
            board[y][x] = 0;
            printf("OK\n");
#ifdef WHOLE_TURN
        } else if (sscanf(line, "INFO max_memory %lld", &max_memory) == 1) {
            allocate_table(max_memory);
#endif
        } else if (strncmp(line, "INFO max_memory", 15) == 0) {
            printf("ERROR Failed to allocate 262144 KB for transposition table\n");
        } else if (strncmp(line, "INFO time_left", 14) == 0) {
            printf("ERROR Unknown command: TIME_LEFT\n");
#ifdef WHOLE_TURN
        } else if (sscanf(line, "INFO timeout_turn %ld", &timeout_turn) == 1) {
            /* its time to think */
#endif
        } else if (strncmp(line, "INFO", 4) == 0 || line[0] == '\0') {
            /* time limits and rules: nothing to answer */
        } else if (strcmp(line, "ABOUT") == 0) {
            printf("name=\"testbrain\", version=\"1.0\", author=\"clings tests\", country=\"CZ\"\n");
        } else if (strcmp(line, "END") == 0) {
            return 0;
        } else {
            printf("UNKNOWN %s\n", line);
        }
        fflush(stdout);
    }
    return 0;
}

/* A small Gomocup ("pbrain") engine for clings' tests: it speaks the piskvork protocol on
 * stdin and stdout, one command a line. START n (OK, or ERROR for a size it cannot play),
 * RESTART, BEGIN, TURN x,y, BOARD ... DONE (a new position: x,y,1 its own stones, x,y,2
 * the opponent's), TAKEBACK x,y, INFO (ignored), ABOUT, END; anything else is UNKNOWN.
 * Coordinates are x,y: x the column, y the row. Before each move it says MESSAGE and
 * DEBUG lines (one with a control character), which a manager logs; as Rapfi does, it
 * answers INFO max_memory and INFO time_left with ERROR lines (a table it could not
 * allocate, a command it does not know), which a manager logs too, and plays on.
 *
 * Built with -DWHOLE_TURN (and -pthread), it behaves as Rapfi does (github.com/dhbloo/rapfi):
 * - its hash table is the whole max_memory it is told, as Rapfi's `INFO max_memory`
 *   (command/gomocup.cpp: max_memory >> 10 KB, less `memory_reserved_mb`, which its
 *   shipped config.toml sets to 0) and HashTable::resize (search/hashtable.cpp: 64-byte
 *   buckets, allocated 2 MiB-aligned and rounded up to 2 MiB, advised as huge pages, halved
 *   with an ERROR while the allocation fails) size it; it is cleared (every page touched) by
 *   as many new threads as the search has, as HashTable::clear does;
 * - a pool of SEARCH_THREADS threads, started once as Rapfi's thread pool is, all spin for
 *   the whole timeout_turn it was told before it answers, one with a 64 MiB stack for a
 *   deep search. A thread it cannot start is an ERROR line.
 *
 * It plays five if it can, else blocks the opponent's five, else the empty cell with the
 * longest lines through it (its own counted twice), the one nearest the centre on ties:
 * deterministic. */
#ifdef WHOLE_TURN
#define _GNU_SOURCE /* clock_gettime, posix_memalign, MADV_HUGEPAGE */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef WHOLE_TURN
#include <pthread.h>
#include <sys/mman.h>
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
#define SEARCH_THREADS 8
#define HUGE_PAGE (2u << 20)
#define BUCKET 64

static long timeout_turn = 1000;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static volatile int thinking;
static int turns; /* how many turns the pool was woken for */

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}

/* A search thread: asleep until a turn begins, then busy until it ends. */
static void *search(void *unused)
{
    (void)unused;
    int seen = 0;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (turns == seen)
            pthread_cond_wait(&go, &lock);
        seen = turns;
        pthread_mutex_unlock(&lock);
        while (thinking)
            continue;
    }
    return NULL;
}

static int pool_started;

static void start_pool(void)
{
    pthread_attr_t deep;
    pthread_attr_init(&deep);
    pthread_attr_setstacksize(&deep, 64 << 20);
    for (int k = 0; k < SEARCH_THREADS; k++) {
        pthread_t thread;
        if (pthread_create(&thread, k == 0 ? &deep : NULL, search, NULL) != 0) {
            printf("ERROR Failed to start search thread %d\n", k + 1);
            return;
        }
        pthread_detach(thread);
    }
    pool_started = 1;
}

static char *table;
static size_t table_bytes;

struct part {
    char *start;
    size_t len;
};

static void *clear_part(void *arg)
{
    struct part *part = arg;
    memset(part->start, 0, part->len);
    return NULL;
}

/* HashTable::clear: each of as many threads as the search has zeroes its part. */
static void clear_table(void)
{
    size_t buckets = table_bytes / BUCKET, stride = buckets / SEARCH_THREADS;
    pthread_t threads[SEARCH_THREADS];
    struct part parts[SEARCH_THREADS];
    int started[SEARCH_THREADS];
    for (int k = 0; k < SEARCH_THREADS; k++) {
        size_t first = stride * k;
        parts[k].start = table + first * BUCKET;
        parts[k].len = (k != SEARCH_THREADS - 1 ? stride : buckets - first) * BUCKET;
        started[k] = pthread_create(&threads[k], NULL, clear_part, &parts[k]) == 0;
        if (!started[k]) {
            printf("ERROR Failed to start a thread to clear the table\n");
            clear_part(&parts[k]);
        }
    }
    for (int k = 0; k < SEARCH_THREADS; k++)
        if (started[k])
            pthread_join(threads[k], NULL);
}

/* INFO max_memory and HashTable::resize: all of it, in KB, none reserved (0: Gomocup's 350 MB). */
static void allocate_table(long long max_memory)
{
    size_t kb = max_memory == 0 ? 350u * 1024 : (size_t)(max_memory >> 10);
    size_t buckets = kb * (1024 / BUCKET);
    if (buckets < 1)
        buckets = 1;
    free(table);
    table = NULL;
    size_t trying = buckets;
    while (trying) {
        size_t bytes = (trying * BUCKET + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        void *memory;
        if (posix_memalign(&memory, HUGE_PAGE, bytes) == 0) {
            madvise(memory, bytes, MADV_HUGEPAGE);
            table = memory;
            break;
        }
        trying /= 2;
    }
    if (trying != buckets)
        printf("ERROR Failed to allocate %zu KB for transposition table.\n", kb);
    if (!table)
        exit(EXIT_FAILURE);
    table_bytes = trying * BUCKET;
    clear_table();
}

/* The whole pool busy until the turn told is used up, counted from the command. */
static void think(long since)
{
    pthread_mutex_lock(&lock);
    thinking = 1;
    turns++;
    pthread_cond_broadcast(&go);
    pthread_mutex_unlock(&lock);
    while (now_ms() - since < timeout_turn)
        continue;
    thinking = 0;
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
#ifdef WHOLE_TURN
                if (!pool_started)
                    start_pool();
#endif
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

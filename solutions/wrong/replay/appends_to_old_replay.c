/* wrong: replay.txt is opened with "a": the moves are added after an older game instead of replacing it */
#include <stdio.h>
#include <string.h>

#define SIZE 15
#define MAX_MOVES (SIZE * SIZE)     /* a game has at most 225 legal moves */
#define REPLAY_FILE "replay.txt"

static char board[SIZE][SIZE];

/* The legal moves of the game, in order: history[i][0] row, history[i][1] col. */
static int history[MAX_MOVES][2];
static int move_count = 0;

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
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

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

void print_board(void)
{
    printf("   ");
    for (int c = 0; c < SIZE; c++)
        printf("%2d ", c);
    printf("\n");

    for (int r = 0; r < SIZE; r++) {
        printf("%2d ", r);
        for (int c = 0; c < SIZE; c++)
            printf(" %c ", board[r][c]);
        printf("\n");
    }
}

/* Called after a legal move only: an illegal one is not part of the game. */
void record_move(int r, int c)
{
    history[move_count][0] = r;
    history[move_count][1] = c;
    move_count++;
}

/* Writes the whole history; "w" replaces whatever the file held before.
 * Returns 0 on success, 1 if the file could not be written. */
int save_replay(const char *filename)
{
    FILE *fp = fopen(filename, "a");

    if (fp == NULL) {
        perror(filename);
        return 1;
    }
    for (int i = 0; i < move_count; i++)
        fprintf(fp, "%d %d\n", history[i][0], history[i][1]);
    if (fclose(fp) != 0) {          /* the data reaches the file here */
        perror(filename);
        return 1;
    }
    printf("Replay saved to %s (%d moves)\n", filename, move_count);
    return 0;
}

/* Returns the exit status: 0 after a replay, 1 if the file cannot be read. */
int load_and_replay(const char *filename)
{
    FILE *fp = fopen(filename, "r");
    int r, c;
    int turn = 0;

    if (fp == NULL) {
        perror(filename);           /* e.g. "game.txt: No such file or directory" */
        return 1;
    }

    init_board();
    while (fscanf(fp, "%d %d", &r, &c) == 2) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';

        /* A saved game holds legal moves only; anything else is not a replay. */
        if (!onboard(r, c) || !empty(r, c)) {
            fprintf(stderr, "%s: move %d (%d %d) is not a legal move\n",
                    filename, turn + 1, r, c);
            fclose(fp);
            return 1;
        }
        board[r][c] = cur;

        /* the arrow is U+2192, three bytes in UTF-8 ("\u2192" is the same) */
        printf("Move %d: Player %c → (%d,%d)\n", turn + 1, cur, r, c);
        print_board();
        printf("\n");

        if (check_win(cur)) {
            printf("Player %c wins!\n", cur);
            break;                  /* moves after the win are not shown */
        }
        turn++;
    }
    fclose(fp);
    return 0;
}

int play(void)
{
    int turn = 0;

    init_board();
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        int r, c;

        printf("Player %c, enter row col: ", cur);
        if (scanf("%d %d", &r, &c) != 2)
            return 0;               /* the input ended before the game did */

        if (!onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;
        record_move(r, c);

        if (check_win(cur)) {
            printf("Player %c wins!\n", cur);
            break;
        }
        if (board_full()) {
            printf("Draw!\n");
            break;
        }
        turn++;
    }
    return save_replay(REPLAY_FILE);
}

int main(int argc, char *argv[])
{
    if (argc > 1)
        return load_and_replay(argv[1]);
    return play();
}

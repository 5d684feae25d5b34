/* wrong: load does not check what fgets returns for the rows: a file cut short is loaded, its last row read twice */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

void init_board(void)
{
    memset(board, '.', sizeof(board));
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

/* Writes the board and the player to move; returns 0 if the file cannot be written. */
int save_game(const char *name, char to_move)
{
    FILE *fp = fopen(name, "w");        /* "w": an older file is replaced */

    if (fp == NULL)
        return 0;
    fprintf(fp, "%d %c\n", SIZE, to_move);
    for (int r = 0; r < SIZE; r++) {
        for (int c = 0; c < SIZE; c++)
            fputc(board[r][c], fp);
        fputc('\n', fp);
    }
    return fclose(fp) == 0;             /* the data reaches the file here */
}

/* Whether `row` (as fgets read it) is SIZE cells of X, O or '.', then the newline. */
int valid_row(const char *row)
{
    for (int c = 0; c < SIZE; c++)
        if (row[c] != 'X' && row[c] != 'O' && row[c] != '.')
            return 0;                   /* the '\0' of a short row stops here too */
    return row[SIZE] == '\n' || row[SIZE] == '\0';
}

/* Reads a saved game into *to_move and the board.
 * Returns 1 if it is loaded, 0 if the file cannot be opened, -1 if it is not a
 * saved game; the board and *to_move change only when it is loaded. */
int load_game(const char *name, char *to_move)
{
    FILE *fp = fopen(name, "r");
    char loaded[SIZE][SIZE];            /* the file's board, until all of it is checked */
    char line[SIZE + 3];                /* a row, its '\n', its '\0', and one more to see a long row */
    int size;
    char player;

    if (fp == NULL)
        return 0;
    if (fgets(line, sizeof(line), fp) == NULL
        || sscanf(line, "%d %c", &size, &player) != 2
        || size != SIZE || (player != 'X' && player != 'O')) {
        fclose(fp);
        return -1;
    }
    for (int r = 0; r < SIZE; r++) {
        fgets(line, sizeof(line), fp);
        if (!valid_row(line)) {
            fclose(fp);
            return -1;                  /* cut short, or a row that is not 15 cells */
        }
        memcpy(loaded[r], line, SIZE);
    }
    fclose(fp);

    memcpy(board, loaded, sizeof(board));
    *to_move = player;
    return 1;
}

int main(void)
{
    char line[80];
    int turn = 0;                       /* only turn % 2 matters: X when it is even */

    init_board();
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        char command[16], name[64];
        int r, c;

        printf("Player %c, enter row col: ", cur);
        if (fgets(line, sizeof(line), stdin) == NULL)
            return 0;                   /* the input ended before the game did */

        if (sscanf(line, "%15s %63s", command, name) == 2) {
            if (strcmp(command, "save") == 0) {
                if (save_game(name, cur))
                    printf("Game saved to %s.\n", name);
                else
                    printf("Cannot write %s!\n", name);
                continue;               /* the same player is still to move */
            }
            if (strcmp(command, "load") == 0) {
                int loaded = load_game(name, &cur);

                if (loaded == 1) {
                    turn = (cur == 'X') ? 0 : 1;
                    printf("Game loaded from %s.\n", name);
                    print_board();
                } else if (loaded == 0) {
                    printf("Cannot open %s!\n", name);
                } else {
                    printf("%s is not a saved game!\n", name);
                }
                continue;
            }
        }

        /* onboard first: empty() must never see an off-board cell */
        if (sscanf(line, "%d %d", &r, &c) != 2 || !onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;

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
    return 0;
}

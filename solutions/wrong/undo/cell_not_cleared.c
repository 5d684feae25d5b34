/* wrong: undo pops the move and hands the turn back but leaves the stone on the board: the cell is never set back to '.' */
#include <stdio.h>
#include <string.h>

#define SIZE 15
#define MAX_MOVES (SIZE * SIZE)     /* every move on the stack is a stone on the board */

static char board[SIZE][SIZE];

/* The history stack: the legal moves in the order played, the last on top.
 * history[i][0] is the row of move i, history[i][1] its column. */
static int history[MAX_MOVES][2];
static int top = 0;                 /* how many moves the stack holds */

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

void push_move(int r, int c)
{
    history[top][0] = r;
    history[top][1] = c;
    top++;
}

/* Takes the last move off the stack into *r, *c; returns 0 if there is none. */
int pop_move(int *r, int *c)
{
    if (top == 0)
        return 0;
    top--;
    *r = history[top][0];
    *c = history[top][1];
    return 1;
}

/* Whether the line's first word is `word`. */
int is_command(const char *line, const char *word)
{
    char first[16];

    return sscanf(line, "%15s", first) == 1 && strcmp(first, word) == 0;
}

int main(void)
{
    char line[80];
    int turn = 0;                   /* counts the stones on the board */

    init_board();
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        int r, c;

        printf("Player %c, enter row col: ", cur);
        if (fgets(line, sizeof(line), stdin) == NULL)
            return 0;               /* the input ended before the game did */

        if (is_command(line, "undo")) {
            if (!pop_move(&r, &c)) {
                printf("Nothing to undo!\n");
                continue;           /* nothing changed: the same player again */
            }
            turn--;                 /* the turn goes back to who made that move */
            printf("Undo: Player %c's move (%d,%d) taken back.\n",
                   (turn % 2 == 0) ? 'X' : 'O', r, c);
            print_board();
            continue;
        }

        /* onboard first: empty() must never see an off-board cell */
        if (sscanf(line, "%d %d", &r, &c) != 2 || !onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;
        push_move(r, c);

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

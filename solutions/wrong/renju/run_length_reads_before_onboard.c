/* wrong: run_length reads board[nr][nc] before it asks onboard(nr, nc): a run that reaches the edge reads row or column -1 or 15 */
#include <stdio.h>
#include <string.h>

#define SIZE 15

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

/* Full means no '.' left: stop at the first empty cell found. */
int board_full(void)
{
    for (int r = 0; r < SIZE; r++)
        for (int c = 0; c < SIZE; c++)
            if (board[r][c] == '.')
                return 0;
    return 1;
}

/* The forbidden moves, in the order they are looked for. */
enum { ALLOWED, OVERLINE, DOUBLE_FOUR, DOUBLE_THREE };
const char *const forbidden_names[] = { "", "overline", "double four", "double three" };

/* The stones of X in an unbroken row through (r, c) along direction d,
 * (r, c) included: asked with X's stone on (r, c). */
int run_length(int r, int c, int d)
{
    int length = 1;

    for (int sign = -1; sign <= 1; sign += 2) {
        int nr = r + sign * dirs[d][0], nc = c + sign * dirs[d][1];

        while (board[nr][nc] == 'X' && onboard(nr, nc)) {
            length++;
            nr += sign * dirs[d][0];
            nc += sign * dirs[d][1];
        }
    }
    return length;
}

/* Does X's stone on (r, c) stand in exactly five in a row, in some line? */
int makes_five(int r, int c)
{
    for (int d = 0; d < 4; d++)
        if (run_length(r, c, d) == 5)
            return 1;
    return 0;
}

/* Six or more of X's stones in a row through (r, c)? */
int makes_overline(int r, int c)
{
    for (int d = 0; d < 4; d++)
        if (run_length(r, c, d) >= 6)
            return 1;
    return 0;
}

/* How many fours X's stone on (r, c) makes along direction d. A cell of the
 * line that would make exactly five through (r, c) shows a four. An open
 * four .XXXX. is shown by both of its ends, five cells apart, yet it is one
 * four; two such cells closer together are two fours (X.XXX.X: a double
 * four in one line). */
int fours(int r, int c, int d)
{
    int first = 0, found = 0, apart = 0;

    for (int k = -4; k <= 4; k++) {
        int nr = r + k * dirs[d][0], nc = c + k * dirs[d][1];

        if (!onboard(nr, nc) || !empty(nr, nc))
            continue;
        board[nr][nc] = 'X';
        int five = run_length(r, c, d) == 5;
        board[nr][nc] = '.';
        if (five) {
            if (found == 0)
                first = k;
            else
                apart = k - first;
            found++;
        }
    }
    return found == 2 && apart == 5 ? 1 : found;
}

/* Is X's unbroken row through (r, c) along d a straight four: four stones
 * with an empty cell at each end that makes exactly five? */
int straight_four(int r, int c, int d)
{
    if (run_length(r, c, d) != 4)
        return 0;
    for (int sign = -1; sign <= 1; sign += 2) {
        int nr = r, nc = c;

        while (onboard(nr, nc) && board[nr][nc] == 'X') {
            nr += sign * dirs[d][0];
            nc += sign * dirs[d][1];
        }
        if (!onboard(nr, nc) || !empty(nr, nc))
            return 0;
        board[nr][nc] = 'X';
        int five = run_length(nr, nc, d) == 5;
        board[nr][nc] = '.';
        if (!five)
            return 0;
    }
    return 1;
}

int forbidden(int r, int c);

/* Does X's stone on (r, c) make a three along d? Only a line with no four
 * is asked. It is a three if one more stone of the line makes a straight
 * four, and that stone is a move black may play: not a five (it would win
 * instead), not forbidden itself. A three whose straight four would need a
 * forbidden cell is no three. */
int three(int r, int c, int d)
{
    for (int k = -4; k <= 4; k++) {
        int nr = r + k * dirs[d][0], nc = c + k * dirs[d][1];

        if (!onboard(nr, nc) || !empty(nr, nc))
            continue;
        board[nr][nc] = 'X';
        int straight = straight_four(r, c, d) && !makes_five(nr, nc);
        board[nr][nc] = '.';
        if (straight && forbidden(nr, nc) == ALLOWED)
            return 1;
    }
    return 0;
}

/* Would X's move on the empty cell (r, c) be forbidden, and by which rule?
 * The stone is put down to look at the lines it makes, then taken back. */
int forbidden(int r, int c)
{
    int result = ALLOWED, four_count = 0, three_count = 0;

    board[r][c] = 'X';
    if (makes_five(r, c)) {
        result = ALLOWED;               /* exactly five wins, whatever else */
    } else if (makes_overline(r, c)) {
        result = OVERLINE;
    } else {
        for (int d = 0; d < 4; d++) {
            int n = fours(r, c, d);
            four_count += n;
            if (n == 0)                 /* a line with a four is no three */
                three_count += three(r, c, d);
        }
        if (four_count >= 2)
            result = DOUBLE_FOUR;
        else if (three_count >= 2)
            result = DOUBLE_THREE;
    }
    board[r][c] = '.';
    return result;
}

int main(void)
{
    int turn = 0;                 /* counts legal moves only */

    init_board();
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        int r, c;

        printf("Player %c, enter row col: ", cur);
        if (scanf("%d %d", &r, &c) != 2)
            return 0;             /* end of input (or not a number): stop */

        /* onboard first: empty() must never see an off-board cell */
        if (!onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;             /* same player again: turn is unchanged */
        }
        if (cur == 'X') {
            int rule = forbidden(r, c);
            if (rule != ALLOWED) {
                printf("Forbidden move: %s! Try again.\n", forbidden_names[rule]);
                continue;         /* X again, on another cell */
            }
        }

        board[r][c] = cur;

        /* X never has six (they are refused) unless a five came with them:
         * five or more is a win for both */
        if (check_win(cur)) {
            printf("Player %c wins!\n", cur);
            break;
        }
        if (board_full()) {
            printf("Draw!\n");
            break;
        }
        turn++;                   /* only now is it the other player's turn */
    }
    return 0;
}

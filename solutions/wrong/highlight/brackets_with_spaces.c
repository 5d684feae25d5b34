/* wrong: a highlighted cell is printed "[ X ]", five characters wide: the rows no longer line up with the column numbers */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

/* The five cells of the winning line, {row, col} each, filled by check_dir. */
static int win_pos[5][2];

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

/*
 * Five cells from (r, c) in direction (dr, dc). Each of the player's cells is
 * written to win_pos as it is counted. A line that breaks off leaves a few
 * entries behind, but a line that reaches five writes all of win_pos[0..4]
 * again, so after a return of 1 win_pos holds exactly this line.
 */
int check_dir(int r, int c, int dr, int dc, char player)
{
    int count = 0;

    for (int k = 0; k < 5; k++) {
        int nr = r + k * dr;
        int nc = c + k * dc;

        if (!onboard(nr, nc) || board[nr][nc] != player)
            break;
        win_pos[count][0] = nr;
        win_pos[count][1] = nc;
        count++;
    }
    return count >= 5;
}

/* Stops at the first five found: win_pos keeps that one. */
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

/* Is (r, c) one of the five cells in win_pos? */
int in_win_line(int r, int c)
{
    for (int k = 0; k < 5; k++)
        if (win_pos[k][0] == r && win_pos[k][1] == c)
            return 1;
    return 0;
}

/* The board of exercise 1, with the cells of win_pos drawn as [X]: every
 * cell is still three characters wide, so the columns stay aligned. */
void print_board_highlight(void)
{
    printf("   ");
    for (int c = 0; c < SIZE; c++)
        printf("%2d ", c);
    printf("\n");

    for (int r = 0; r < SIZE; r++) {
        printf("%2d ", r);
        for (int c = 0; c < SIZE; c++) {
            if (in_win_line(r, c))
                printf("[ %c ]", board[r][c]);
            else
                printf(" %c ", board[r][c]);
        }
        printf("\n");
    }
}

int main(void)
{
    int turn = 0;

    init_board();
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        int r, c;

        printf("Player %c, enter row col: ", cur);
        if (scanf("%d %d", &r, &c) != 2)
            return 0;

        if (!onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;

        if (check_win(cur)) {           /* win_pos now holds the five */
            print_board_highlight();
            printf("Player %c wins!\n", cur);
            break;
        }
        if (board_full()) {             /* a draw shows no board */
            printf("Draw!\n");
            break;
        }
        turn++;
    }
    return 0;
}

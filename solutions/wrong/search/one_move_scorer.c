/* wrong: the chapter 2 ai: the lesson's priorities and a score for each cell, no look-ahead */
#include <stdio.h>
#include <stdlib.h>
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

/* Would a stone of `player` on the empty cell (r, c) make five? Try it with
 * check_win, then take the stone back. */
int makes_five(int r, int c, char player)
{
    board[r][c] = player;
    int five = check_win(player);
    board[r][c] = '.';
    return five;
}

/* How many stones of `player` would stand in a row through (r, c) in
 * direction (dr, dc) if `player` played there: the cell itself plus the
 * unbroken run on each side. */
int line_length(int r, int c, int dr, int dc, char player)
{
    int length = 1;

    for (int sign = -1; sign <= 1; sign += 2) {
        int nr = r + sign * dr, nc = c + sign * dc;

        while (onboard(nr, nc) && board[nr][nc] == player) {
            length++;
            nr += sign * dr;
            nc += sign * dc;
        }
    }
    return length;
}

/* The value of (r, c) for `player`: every line it would lengthen counts by
 * the stones already in it, each stone ten times more than the one before,
 * so that one line of three (100) outweighs any number of twos around it.
 * Unlike the lesson's sketch, only unbroken runs count. */
int evaluate(int r, int c, char player)
{
    static const int worth[5] = { 0, 1, 10, 100, 1000 };
    int score = 0;

    for (int d = 0; d < 4; d++) {
        int stones = line_length(r, c, dirs[d][0], dirs[d][1], player) - 1;
        score += worth[stones < 4 ? stones : 4];
    }
    return score;
}

/* The priority of (r, c) for `me`, highest first. */
int priority(int r, int c, char me, char opp)
{
    if (makes_five(r, c, me))
        return 3;               /* make five: the game is won */
    if (makes_five(r, c, opp))
        return 2;               /* block the opponent's four */
    for (int d = 0; d < 4; d++)
        if (line_length(r, c, dirs[d][0], dirs[d][1], me) == 4)
            return 1;           /* extend an own three to four */
    return 0;
}

/* Chooses the move of `me` into *r, *c; returns 0 if no cell is empty. */
int think(int *r, int *c, char me)
{
    char opp = (me == 'X') ? 'O' : 'X';
    int best_priority = -1, best_score = -1, best_distance = 0;

    *r = *c = -1;
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++) {
            if (!empty(i, j))
                continue;

            int p = priority(i, j, me, opp);
            /* attack counts twice: our lines before theirs */
            int score = evaluate(i, j, me) * 2 + evaluate(i, j, opp);
            /* on equal scores, the cell nearest the centre: room for lines */
            int distance = abs(i - SIZE / 2) + abs(j - SIZE / 2);

            if (p > best_priority
                || (p == best_priority && score > best_score)
                || (p == best_priority && score == best_score && distance < best_distance)) {
                best_priority = p;
                best_score = score;
                best_distance = distance;
                *r = i;
                *c = j;
            }
        }
    return *r >= 0;
}

int main(void)
{
    char me, turn = 'X';

    if (scanf(" %c", &me) != 1 || (me != 'X' && me != 'O'))
        return 0;
    init_board();
    while (1) {
        int r, c;

        if (turn == me) {
            if (!think(&r, &c, me))
                return 0;                   /* the board is full */
            printf("%d %d\n", r, c);
            fflush(stdout);                 /* a pipe keeps the line in a buffer until then */
        } else if (scanf("%d %d", &r, &c) != 2 || !onboard(r, c)) {
            return 0;                       /* end of input: the referee ended the game */
        }
        board[r][c] = turn;
        turn = (turn == 'X') ? 'O' : 'X';
    }
}

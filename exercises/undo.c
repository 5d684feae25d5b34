/*
 * Chapter 3, exercise 1: undo -- take back a move (悔棋)
 * 第 3 章练习 1：悔棋
 *
 * The game of exercise 3 is here and works; main reads each input line
 * whole (fgets), so a line can be a move "r c" or the command "undo".
 * Make "undo" take back the last move, as the article does with a history
 * stack of the moves played:
 *
 *   - every legal move is pushed on the stack once its stone is placed
 *     (illegal moves are not moves of the game: never pushed);
 *   - "undo" pops the last move (r,c): its cell is empty again, the turn
 *     goes back to the player who made it, and the program prints
 *         Undo: Player X's move (r,c) taken back.
 *     then the board as exercise 1 prints it (print_board is here);
 *   - "undo" again takes back the move before, down to the empty board;
 *     with no move to take back it prints "Nothing to undo!" and the same
 *     player moves again;
 *   - everything else (prompts, messages, the end of the game) is exercise 3's.
 *
 * 练习 3 的对弈已经写好并可以运行；main 整行读入（fgets），所以一行可以是落子
 * "r c"，也可以是命令 "undo"。让 "undo" 悔掉最后一步，像文章里那样用一个
 * 落子历史栈：
 *   - 每步合法落子在棋子放好之后入栈（非法落子不属于这盘棋：不入栈）；
 *   - "undo" 弹出最后一步 (r,c)：这个格子重新变空，轮到下这一步的玩家，并打印
 *         Undo: Player X's move (r,c) taken back.
 *     然后按练习 1 的格式打印棋盘（print_board 已经写好）；
 *   - 再输入 "undo" 就悔掉前一步，一直可以悔到空棋盘；没有可悔的棋时打印
 *     "Nothing to undo!"，由同一个玩家重新落子；
 *   - 其余一切（提示、消息、对局的结束）都和练习 3 一样。
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15
#define MAX_MOVES (SIZE * SIZE)     /* every move on the stack is a stone on the board */

static char board[SIZE][SIZE];

/* The history stack (落子历史栈): the legal moves in the order played, the
 * last on top. history[i][0] is the row of move i, history[i][1] its column;
 * top is how many moves the stack holds, so the last is history[top - 1]. */
/* 落子历史栈：按顺序记录的合法落子，最后一步在栈顶。history[i][0] 是第 i 步
 * 的行，history[i][1] 是列；top 是栈里的步数，所以最后一步是 history[top - 1]。 */
int history[MAX_MOVES][2];
int top = 0;

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
    /* TODO: store (r, c) at history[top], then top++. */
    /* TODO：把 (r, c) 存进 history[top]，然后 top++。 */
    (void)r; (void)c;   /* TODO-remove */
}

/* Takes the last move off the stack into *r and *c and returns 1;
 * returns 0, and changes nothing, when the stack is empty. */
/* 把最后一步从栈里取出，放进 *r 和 *c，并返回 1；栈为空时返回 0，什么也不改。 */
int pop_move(int *r, int *c)
{
    /* TODO: if top is 0 there is no move: return 0. Otherwise top--, then
     *       read the move at history[top] into *r and *c, and return 1. */
    /* TODO：top 为 0 时没有棋可悔：return 0。否则先 top--，再把 history[top]
     *       里的这一步读进 *r 和 *c，return 1。 */
    (void)r; (void)c;   /* TODO-remove */
    return 0;
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
            /* TODO: pop the last move with pop_move(&r, &c). If there is
             *       none: "Nothing to undo!\n", and the same player again.
             *       Otherwise: make cell (r, c) empty again, give the turn
             *       back (turn--), print
             *       "Undo: Player %c's move (%d,%d) taken back.\n" with the
             *       player whose move it was, then print_board(). */
            /* TODO：用 pop_move(&r, &c) 弹出最后一步。没有的话打印
             *       "Nothing to undo!\n"，由同一个玩家重下。否则：把格子 (r, c)
             *       重新设为空，把回合还回去（turn--），用下这一步的玩家打印
             *       "Undo: Player %c's move (%d,%d) taken back.\n"，再 print_board()。 */
            continue;
        }

        /* onboard first: empty() must never see an off-board cell */
        if (sscanf(line, "%d %d", &r, &c) != 2 || !onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;
        /* TODO: push this legal move on the stack (push_move). */
        /* TODO：把这一步合法落子压入栈中（push_move）。 */

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

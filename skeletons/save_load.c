/*
 * Chapter 3, exercise 2: save_load -- save a game and resume it (存档与读档)
 * 第 3 章练习 2：存档与读档
 *
 * The game of exercise 3 is here and works; main reads each input line
 * whole (fgets), so a line can be a move "r c" or a command, and it already
 * answers the commands with their messages:
 *     save NAME   save_game(NAME, cur): "Game saved to NAME." or
 *                 "Cannot write NAME!"; the same player is still to move
 *     load NAME   load_game(NAME, &cur): "Game loaded from NAME." and the
 *                 board, the game going on from the file's board and player;
 *                 or "Cannot open NAME!" or "NAME is not a saved game!",
 *                 and the game goes on as it was
 * Write save_game and load_game. The file, exactly (here O is to move):
 *     15 O               line 1: the board size, a space, the player to move
 *     ...............    lines 2 to 16: rows 0 to 14, each its 15 cells
 *     .......X.......    (X, O or '.') with nothing between them
 *     ...
 * A file is not a saved game when its size is not 15, its player is not X
 * or O, it has fewer than 15 rows, or a row is not 15 cells of X, O and '.'.
 * A load that fails leaves the board and the player to move unchanged.
 *
 * 练习 3 的对弈已经写好并可以运行；main 整行读入（fgets），所以一行可以是落子
 * "r c"，也可以是命令，而且 main 已经会回应这些命令并打印相应的信息：
 *     save NAME   save_game(NAME, cur)："Game saved to NAME." 或
 *                 "Cannot write NAME!"；之后仍由同一个玩家落子
 *     load NAME   load_game(NAME, &cur)："Game loaded from NAME." 并打印棋盘，
 *                 对局从文件里的棋盘和玩家接着下；或者 "Cannot open NAME!"、
 *                 "NAME is not a saved game!"，对局照原样继续
 * 你要写 save_game 和 load_game。文件格式如下，一字不差：
 *     第 1 行：棋盘大小、一个空格、该落子的玩家（X 或 O），例如 15 O；
 *     第 2 到 16 行：第 0 到 14 行棋盘，每行 15 个格子（X、O 或 '.'），中间没有空格。
 * 以下情况不是存档：大小不是 15，玩家不是 X 或 O，不到 15 行，或者某一行不是
 * 15 个由 X、O、'.' 组成的格子。读档失败时，棋盘和该落子的玩家都保持不变。
 *
 * Run `clings hint` if you are stuck.
 */
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

/* Writes the board and the player to move to the file `name`.
 * Returns 1 once it is written, 0 if the file cannot be written. */
/* 把棋盘和该落子的玩家写进文件 name。写好返回 1，文件无法写入返回 0。 */
int save_game(const char *name, char to_move)
{
    /* TODO: fopen(name, "w") (an older file is replaced); NULL: return 0.
     *       Line 1: fprintf(fp, "%d %c\n", SIZE, to_move). Then each row:
     *       its 15 cells with fputc, and a '\n'. fclose(fp), return 1. */
    /* TODO：fopen(name, "w")（旧文件会被替换）；返回 NULL 时 return 0。
     *       第 1 行：fprintf(fp, "%d %c\n", SIZE, to_move)。然后每一行：用 fputc
     *       写出它的 15 个格子，再写一个 '\n'。fclose(fp)，return 1。 */
    (void)name; (void)to_move;   /* TODO-remove */
    return 0;
}

/* Reads the saved game `name` into the board and *to_move.
 * Returns 1 when it is loaded, 0 if the file cannot be opened, -1 if it is
 * not a saved game. The board and *to_move change only when it is loaded. */
/* 把存档 name 读进棋盘和 *to_move。读档成功返回 1，文件打不开返回 0，
 * 不是存档返回 -1。只有读档成功时才改变棋盘和 *to_move。 */
int load_game(const char *name, char *to_move)
{
    /* TODO: fopen(name, "r"); NULL: return 0.
     *       Line 1 (fgets, then sscanf "%d %c"): the size must be SIZE and
     *       the player 'X' or 'O'. Then 15 rows, each read with fgets into a
     *       buffer a little longer than a row: 15 cells of 'X', 'O' or '.',
     *       then the '\n'. Keep the rows in a board of your own,
     *       char loaded[SIZE][SIZE]: anything wrong, fclose and return -1
     *       with board untouched. All right: fclose, copy loaded into board
     *       (memcpy), set *to_move, return 1. */
    /* TODO：fopen(name, "r")；返回 NULL 时 return 0。
     *       第 1 行（先 fgets，再 sscanf "%d %c"）：大小必须是 SIZE，玩家必须是
     *       'X' 或 'O'。然后是 15 行，每行用 fgets 读进一个比一行稍长的缓冲区：
     *       15 个 'X'、'O' 或 '.'，然后是 '\n'。各行先存进你自己的棋盘
     *       char loaded[SIZE][SIZE]：有任何不对，就 fclose 并 return -1，
     *       board 保持不动。全部正确：fclose，把 loaded 复制进 board（memcpy），
     *       设置 *to_move，return 1。 */
    (void)name; (void)to_move;   /* TODO-remove */
    return 0;
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

/*
 * After-class exercise 5: replay -- save a game and replay it
 * 课后练习 5：棋盘保存与复盘
 *
 * The whole game of exercise 3 is already here and works. Add two things:
 *
 * 1. Without arguments (./replay): play the game as before, and record
 *    every legal move in history. When the game ends (a win or a draw),
 *    write replay.txt in the current directory, one line "r c" per legal
 *    move in the order played, then print, after the win or draw line:
 *        Replay saved to replay.txt (N moves)
 *    Illegal moves are not part of the game: not recorded, not counted.
 *
 * 2. With one argument (./replay replay.txt): replay that file instead of
 *    playing. For each move k, counted from 1:
 *        Move k: Player X → (r,c)
 *    then the board as in exercise 1, then an empty line. After a move
 *    that makes five: "Player X wins!" and stop (later moves of the file
 *    are not shown). A file that ends without a five just ends: no draw
 *    line. If the file cannot be opened: a message on stderr and exit
 *    status 1. (The arrow is the character U+2192: copy it from here.)
 *
 * 游戏本身（练习 3）已经写好并且可以运行。要加两件事：
 * 1. 不带参数运行时：照常对弈，把每一步合法落子记进 history。对局结束（获胜或
 *    平局）时，在当前目录写入 replay.txt，每步合法落子一行 "r c"，按落子顺序；
 *    然后在获胜或平局信息之后打印 "Replay saved to replay.txt (N moves)"。
 *    非法落子不属于这盘棋：不记录，也不计数。
 * 2. 带一个参数（文件名）运行时：不对弈，而是回放这个文件。第 k 步（从 1 开始）
 *    打印 "Move k: Player X → (r,c)"，然后按练习 1 的格式打印棋盘，再打印一个空行。
 *    某一步连成五子后打印 "Player X wins!" 并停止（文件里后面的步不再显示）。
 *    文件读完也没有五连就直接结束：不打印平局信息。文件打不开时：在 stderr 上
 *    打印一条信息，退出状态为 1。（箭头是字符 U+2192：从这里复制。）
 *
 * Run `clings hint` if you are stuck.
 */
#include <stdio.h>
#include <string.h>

#define SIZE 15
#define MAX_MOVES 225

static char board[SIZE][SIZE];

/* The legal moves of the game, in order: history[i][0] is the row of move
 * i, history[i][1] its column; move_count is how many there are. */
/* 按顺序记录的合法落子：history[i][0] 是第 i 步的行，history[i][1] 是列；
 * move_count 是已记录的步数。 */
int history[MAX_MOVES][2];
int move_count = 0;

void init_board(void)  { memset(board, '.', sizeof(board)); }

int onboard(int r, int c) { return r >= 0 && r < SIZE && c >= 0 && c < SIZE; }
int empty(int r, int c)   { return board[r][c] == '.'; }

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
    int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };

    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++) {
            if (board[i][j] != player)
                continue;
            for (int d = 0; d < 4; d++)
                if (check_dir(i, j, dirs[d][0], dirs[d][1], player))
                    return 1;
        }
    return 0;
}

int board_full(void)
{
    for (int i = 0; i < SIZE; i++)
        for (int j = 0; j < SIZE; j++)
            if (board[i][j] == '.')
                return 0;
    return 1;
}

/* The board of exercise 1, for the replay. */
/* 练习 1 的棋盘，回放时使用。 */
void print_board(void)
{
    printf("   ");
    for (int j = 0; j < SIZE; j++)
        printf("%2d ", j);
    printf("\n");

    for (int i = 0; i < SIZE; i++) {
        printf("%2d ", i);
        for (int j = 0; j < SIZE; j++)
            printf(" %c ", board[i][j]);
        printf("\n");
    }
}

void record_move(int r, int c)
{
    /* TODO: store (r, c) in history at index move_count, then move_count++. */
    /* TODO：把 (r, c) 存进 history 的第 move_count 项，然后 move_count++。 */
    (void)r; (void)c;   /* TODO-remove */
}

/* Return 0 when the file is written, 1 when it cannot be. */
int save_replay(const char *filename)
{
    /* TODO: FILE *fp = fopen(filename, "w"); if fp is NULL, say so on
     *       stderr and return 1. Write each move of history with
     *       fprintf(fp, ...), one "r c" line each, then fclose(fp), then
     *       print "Replay saved to %s (%d moves)\n" on stdout, with the
     *       file name and move_count. */
    /* TODO：FILE *fp = fopen(filename, "w")；fp 为 NULL 时在 stderr 上说明并
     *       return 1。用 fprintf(fp, ...) 把 history 的每一步写成一行 "r c"，
     *       然后 fclose(fp)，再在 stdout 上打印 "Replay saved to %s (%d moves)\n"，
     *       填入文件名和 move_count。 */
    (void)filename;   /* TODO-remove */
    return 0;
}

/* Return the exit status: 0 after the replay, 1 when the file cannot be opened. */
int load_and_replay(const char *filename)
{
    /* TODO: fopen(filename, "r"); if that fails: a message on stderr
     *       (fprintf(stderr, ...)) and return 1.
     *       Start from an empty board; while fscanf(fp, "%d %d", &r, &c)
     *       reads two numbers: X for move 1, O for move 2, ...; place the
     *       stone, print "Move k: Player X → (r,c)", print_board(), an
     *       empty line; if check_win: "Player X wins!" and stop reading.
     *       fclose(fp) and return 0. */
    /* TODO：fopen(filename, "r")；失败时在 stderr 上打印信息（fprintf(stderr, ...)）
     *       并 return 1。从空棋盘开始；只要 fscanf(fp, "%d %d", &r, &c) 读到两个数：
     *       第 1 步是 X，第 2 步是 O……；落子，打印 "Move k: Player X → (r,c)"，
     *       print_board()，再打印一个空行；check_win 成立时打印 "Player X wins!"
     *       并停止读取。最后 fclose(fp)，return 0。 */
    (void)filename;   /* TODO-remove */
    return 0;
}

int main(int argc, char *argv[])
{
    /* TODO: with an argument (argc > 1), replay the file argv[1] instead of
     *       playing: return load_and_replay(argv[1]); */
    /* TODO：带参数时（argc > 1），不对弈，而是回放文件 argv[1]：
     *       return load_and_replay(argv[1]); */
    (void)argc; (void)argv;   /* TODO-remove */

    init_board();

    int turn = 0;
    while (1) {
        char cur = (turn % 2 == 0) ? 'X' : 'O';
        printf("Player %c, enter row col: ", cur);

        int r, c;
        if (scanf("%d %d", &r, &c) != 2)   /* stop at the end of the input */
            return 0;

        if (!onboard(r, c) || !empty(r, c)) {
            printf("Invalid move! Try again.\n");
            continue;
        }

        board[r][c] = cur;
        /* TODO: record this legal move (record_move). */
        /* TODO：记录这一步合法落子（record_move）。 */

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

    /* TODO: the game is over (a win or a draw): save it, and return what
     *       save_replay returns: return save_replay("replay.txt"); */
    /* TODO：对局结束（获胜或平局）：保存棋谱，并返回 save_replay 的返回值：
     *       return save_replay("replay.txt"); */
    return 0;
}

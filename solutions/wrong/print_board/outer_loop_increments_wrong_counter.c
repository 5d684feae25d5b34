/* wrong: init_board's outer loop increments c instead of r: r never reaches SIZE and the program runs for ever */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

void init_board(void)
{
    int r, c;

    for (r = 0; r < SIZE; c++)
        for (c = 0; c < SIZE; c++)
            board[r][c] = '.';
}

void print_board(void)
{
    printf("   ");
    for (int col = 0; col < SIZE; col++)
        printf("%2d ", col);
    printf("\n");

    for (int row = 0; row < SIZE; row++) {
        printf("%2d ", row);
        for (int col = 0; col < SIZE; col++)
            printf(" %c ", board[row][col]);
        printf("\n");
    }
}

int main(void)
{
    init_board();
    print_board();
    return 0;
}

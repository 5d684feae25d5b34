/* wrong: rows and columns numbered 1..15 instead of 0..14 */
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
    for (int col = 0; col < SIZE; col++)
        printf("%2d ", col + 1);
    printf("\n");

    for (int row = 0; row < SIZE; row++) {
        printf("%2d ", row + 1);
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

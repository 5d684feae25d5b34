/* wrong: the row loop stops one row early (r < SIZE - 1): row 14 is never printed */
#include <stdio.h>
#include <string.h>

#define SIZE 15

char board[SIZE][SIZE];

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
    for (int r = 0; r < SIZE - 1; r++) {
        printf("%2d ", r);
        for (int c = 0; c < SIZE; c++)
            printf(" %c ", board[r][c]);
        printf("\n");
    }
}

int main(void)
{
    init_board();
    print_board();
    return 0;
}

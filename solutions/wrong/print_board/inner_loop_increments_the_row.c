/* wrong: the inner loop over the columns increments the row: for (c = 0; c < SIZE; r++) */
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
    int r, c;

    printf("   ");
    for (c = 0; c < SIZE; c++)
        printf("%2d ", c);
    printf("\n");
    for (r = 0; r < SIZE; r++) {
        printf("%2d ", r);
        for (c = 0; c < SIZE; r++)
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

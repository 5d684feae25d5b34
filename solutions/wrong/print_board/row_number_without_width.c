/* wrong: row numbers printed with "%d " instead of "%2d " */
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
        printf("%2d ", col);
    printf("\n");

    for (int row = 0; row < SIZE; row++) {
        printf("%d ", row);
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

/* wrong: main never calls init_board: every cell is still the '\0' byte of a static array */
#include <stdio.h>
#include <string.h>

#define SIZE 15

static char board[SIZE][SIZE];

/* Every cell starts empty. sizeof(board) is the size of the whole array
 * (SIZE * SIZE bytes), so this keeps working if SIZE changes. */
void init_board(void)
{
    memset(board, '.', sizeof(board));
}

void print_board(void)
{
    /* the header: leave room for the row numbers, then one label per column */
    printf("   ");
    for (int col = 0; col < SIZE; col++)
        printf("%2d ", col);
    printf("\n");

    /* one printed line per row of the array */
    for (int row = 0; row < SIZE; row++) {
        printf("%2d ", row);
        for (int col = 0; col < SIZE; col++)
            printf(" %c ", board[row][col]);   /* three characters per cell */
        printf("\n");
    }
}

int main(void)
{
    print_board();
    return 0;
}

/* Sanitizer: reads one past the end of an array, the lesson's unchecked board[nr][nc]. */
#include <stdio.h>

#define SIZE 2

int main(void)
{
    int cells[SIZE];
    if (scanf("%d %d", &cells[0], &cells[1]) != 2)
        return 1;
    int sum = 0;
    for (int k = 0; k <= SIZE; k++)
        sum += cells[k];
    printf("%d\n", sum);
    return 0;
}

/* Floods: once it knows its colour it writes every cell of the board, row by row, again
 * and again, without reading anything more, until it is stopped. */
#include <stdio.h>

int main(void)
{
    char me;
    if (scanf(" %c", &me) != 1)
        return 0;
    for (;;)
        for (int cell = 0; cell < 225; cell++)
            if (printf("%d %d\n", cell / 15, cell % 15) < 0)
                return 0;
}

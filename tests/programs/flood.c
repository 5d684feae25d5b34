/* Output flood: the game's loop without an EOF check prints its prompt for ever. */
#include <stdio.h>

int main(void)
{
    int r, c;
    while (1) {
        printf("Player X, enter row col: ");
        scanf("%d %d", &r, &c);
    }
}

/* Writes through a pointer that points nowhere. */
#include <stdio.h>

int main(void)
{
    int *volatile nowhere = (int *)16;
    *nowhere = 3;
    printf("%d\n", *nowhere);
    return 0;
}

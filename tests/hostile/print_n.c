/* Prints exactly as many bytes as its input says, no more: the output limit must let
 * exactly the limit through and stop one byte more. */
#include <stdio.h>

int main(void)
{
    long count = 0;
    if (scanf("%ld", &count) != 1)
        return 1;
    for (long i = 0; i < count; i++)
        putchar('x');
    return 0;
}

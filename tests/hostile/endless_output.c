/* Endless output: a line after another, for ever. */
#include <stdio.h>

int main(void)
{
    for (unsigned long i = 0;; i++)
        printf("line %lu\n", i);
}

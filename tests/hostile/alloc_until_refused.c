/* Allocates and touches memory a MiB at a time until it is refused, and says how much it
 * got: the memory limit counts what a program can actually hold. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    long mib = 0;
    for (; mib < 100000; mib++) {
        char *block = malloc(1 << 20);
        if (!block)
            break;
        memset(block, 1, 1 << 20);
    }
    printf("allocated %ld MiB\n", mib);
    return 0;
}

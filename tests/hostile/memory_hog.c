/* Allocates 4 GiB a mebibyte at a time and touches every byte, never checking malloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    size_t chunk = 1 << 20, total = 0;
    while (total < (size_t)4 << 30) {
        char *block = malloc(chunk);
        memset(block, 0xab, chunk);
        total += chunk;
    }
    printf("%zu\n", total);
    return 0;
}

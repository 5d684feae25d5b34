/* Adds two numbers, after allocating, filling and freeing a mebibyte 512 times: it never
 * holds more than one at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    for (int i = 0; i < 512; i++) {
        char *block = malloc(1 << 20);
        if (block == NULL)
            return 1;
        memset(block, i, 1 << 20);
        free(block);
    }
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    printf("%d\n", a + b);
    return 0;
}

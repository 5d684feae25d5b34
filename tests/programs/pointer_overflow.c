#include <stdint.h>
#include <stdio.h>

/* Adds the two numbers right, after moving a pointer past the top of memory: undefined
 * behaviour (pointer-overflow) that no memory access follows. */
int main(void)
{
    int a, b;
    char *volatile top = (char *)(UINTPTR_MAX - 15);
    char *volatile past;

    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    past = top + 32;
    printf("%d\n", a + b + (past == top));
    return 0;
}

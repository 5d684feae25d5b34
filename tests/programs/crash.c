/* Crash: a write through a wild pointer (SIGSEGV). */
#include <stdio.h>

int main(void)
{
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    int *volatile cell = (int *)16;
    *cell = a + b;
    printf("%d\n", *cell);
    return 0;
}

/* Right on every case but those whose first number is 0, where it spins for ever. The
   counter is unsigned (it wraps, no undefined behaviour for UBSan to stop) and volatile
   (the loop cannot be assumed to end). */
#include <stdio.h>

int main(void)
{
    int a, b;
    volatile unsigned spins = 0;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    while (a == 0)
        spins++;
    printf("%d\n", a + b);
    return 0;
}

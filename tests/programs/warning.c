/* Correct, with a compiler warning (an unused variable) that must not fail it. */
#include <stdio.h>

int main(void)
{
    int a, b, unused;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    printf("%d\n", a + b);
    return 0;
}

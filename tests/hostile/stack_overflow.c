/* Recursion without a base case: the stack runs out. */
#include <stdio.h>

static int depth(int n)
{
    volatile char frame[256];
    frame[0] = (char)n;
    return depth(n + 1) + frame[0];
}

int main(void)
{
    printf("%d\n", depth(0));
    return 0;
}

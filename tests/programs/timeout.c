/* Timeout: the classic loop on scanf that never sees EOF (scanf returns -1, which is true). */
#include <stdio.h>

int main(void)
{
    int a, sum = 0;
    while (scanf("%d", &a))
        sum += a;
    printf("%d\n", sum);
    return 0;
}

/* Prints bytes that are not UTF-8, with the sum in between. */
#include <stdio.h>

int main(void)
{
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    printf("\xff\xfe%d\xc3\x28\n\x80\n", a + b);
    return 0;
}

/* Right on small numbers, one too many when the first is above a thousand: it fails a
   hidden case of big numbers and none of the public cases, as a program that probes a
   hidden input would. */
#include <stdio.h>

int main(void)
{
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    printf("%d\n", a > 1000 ? a + b + 1 : a + b);
    return 0;
}

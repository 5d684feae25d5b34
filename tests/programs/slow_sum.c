/* Right, after sleeping a second: slow without using the processor, so runs at the same
   time overlap however busy the machine is. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

int main(void)
{
    int a, b;
    struct timespec second = {1, 0};
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    nanosleep(&second, NULL);
    printf("%d\n", a + b);
    return 0;
}

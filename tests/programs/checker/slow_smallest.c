/* The smallest proper divisor of n, after a second's thought: long enough for a test to
   act while the program runs. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    struct timespec second = {1, 0};
    nanosleep(&second, NULL);
    for (int d = 2; d < n; d++)
        if (n % d == 0) {
            printf("%d\n", d);
            return 0;
        }
    return 0;
}

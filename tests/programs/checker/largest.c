/* Prints the largest proper divisor: right too, though not what the .out holds. */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    for (int d = 2; d < n; d++)
        if (n % d == 0) {
            printf("%d\n", n / d);
            return 0;
        }
    return 0;
}

/* Prints the smallest proper divisor of n (n is never prime in the cases). */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    for (int d = 2; d < n; d++)
        if (n % d == 0) {
            printf("%d\n", d);
            return 0;
        }
    return 0;
}

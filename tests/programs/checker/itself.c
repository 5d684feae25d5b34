/* Prints n itself, which divides n but is no proper divisor. */
#include <stdio.h>

int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    printf("%d\n", n);
    return 0;
}

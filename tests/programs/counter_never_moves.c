/* Reads its two numbers, then spins in a loop whose counter is never increased (a scan
 * without its i++): all its input read, and nothing printed since. */
#include <stdio.h>

int main(void)
{
    int a, b;
    unsigned steps = 0;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    for (int i = 0; i < 3;)
        steps++;
    printf("%d\n", a + b + (int)steps);
    return 0;
}

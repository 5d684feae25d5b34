/* Prints exactly as many bytes as its input says, no more, on stdout or, when the input
 * says stream 2, on stderr: the output limit must let exactly the limit through and stop
 * one byte more, on each stream. */
#include <stdio.h>

int main(void)
{
    long count = 0;
    int stream = 1;
    if (scanf("%ld %d", &count, &stream) < 1)
        return 1;
    FILE *out = stream == 2 ? stderr : stdout;
    for (long i = 0; i < count; i++)
        putc('x', out);
    return 0;
}

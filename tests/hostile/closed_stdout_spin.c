/* Closes its stdout and stderr, then spins: nothing to read, nothing ends. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    fclose(stdout);
    close(2);
    volatile unsigned long spins = 0;
    for (;;)
        spins++;
}

/* A spinner that ignores SIGXCPU, the CPU limit's warning: only the hard limit, a second
 * later, stops it (SIGKILL). */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <signal.h>

int main(void)
{
    signal(SIGXCPU, SIG_IGN);
    volatile unsigned long spins = 0;
    for (;;)
        spins++;
}

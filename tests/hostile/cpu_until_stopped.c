/* Spins until the CPU limit's signal (SIGXCPU) comes, and says how much CPU time it got:
 * the CPU limit counts what a program can actually use. The time is read from the clock
 * the kernel holds the limit to (Linux's process "profiling" clock, user plus system time
 * as sampled by the scheduler's ticks), which may run ahead of CLOCK_PROCESS_CPUTIME_ID. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static void stopped(int signal)
{
    (void)signal;
    /* MAKE_PROCESS_CPUCLOCK(0, CPUCLOCK_PROF) in the kernel: this process, profiling. */
    const clockid_t profiling = (clockid_t)((~0u << 3) | 0);
    struct timespec used;
    clock_gettime(profiling, &used);
    char line[64];
    int length = snprintf(line, sizeof line, "cpu %ld ms\n",
                          (long)used.tv_sec * 1000 + used.tv_nsec / 1000000);
    if (write(1, line, (size_t)length) < 0)
        _exit(2);
    _exit(0);
}

int main(void)
{
    /* The loop calls nothing: the handler interrupts no library function. */
    signal(SIGXCPU, stopped);
    for (volatile unsigned long spin = 0;; spin++)
        ;
}

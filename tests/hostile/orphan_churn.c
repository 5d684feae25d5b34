/* Starts 60 short-lived orphans, one after another, never more than two processes of its
 * own at once: each child forks a grandchild and exits at once, so the grandchild (which
 * exits at once too) is an orphan that the sandbox's init must reap. An init that reaped
 * orphans only after the run would leave them as zombies, which count against the process
 * limit (16): the forks would start failing after a dozen. Reports how many it started. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    int started = 0;
    for (int i = 0; i < 60; i++) {
        pid_t child = fork();
        if (child < 0)
            break;
        if (child == 0) {
            pid_t grandchild = fork();
            if (grandchild == 0)
                _exit(0);
            _exit(grandchild < 0 ? 1 : 0);
        }
        int status = 0;
        if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
            break;
        started++;
        /* Time for the orphan to end and be reaped before the next one. */
        usleep(2000);
    }
    printf("started %d orphans\n", started);
    return 0;
}

/* Leaves orphans behind and waits: a child forks a grandchild that starts a session of its
 * own (setsid) and sleeps, then the child exits, so the grandchild is nobody's child; the
 * program sleeps a minute. Without a pid namespace only a subreaper still sees the orphan. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    pid_t child = fork();
    if (child == 0) {
        if (fork() == 0) {
            setsid();
            sleep(60);
            _exit(0);
        }
        _exit(0);
    }
    waitpid(child, NULL, 0);
    printf("orphaned a grandchild\n");
    fflush(stdout);
    sleep(60);
    return 0;
}

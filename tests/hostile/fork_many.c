/* Forks as many children as it can; each leaves the process group (setsid) and sleeps a
 * minute. The parent reports how many it made and exits at once. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    int made = 0;
    for (int i = 0; i < 10000; i++) {
        pid_t child = fork();
        if (child < 0)
            break;
        if (child == 0) {
            setsid();
            sleep(60);
            _exit(0);
        }
        made++;
    }
    printf("forked %d children\n", made);
    return 0;
}

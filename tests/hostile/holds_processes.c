/* Holds the most processes its limit allows for a while: forks until a fork fails (or 200
 * children), each child sleeping HOLD_MS, then waits for them all and prints "held N", N
 * the children it had at once. Whatever shares its user's process count meanwhile (another
 * run under the same user id) cannot fork. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HOLD_MS 2500

int main(void)
{
    int held = 0;
    for (int i = 0; i < 200; i++) {
        pid_t child = fork();
        if (child < 0)
            break;
        if (child == 0) {
            struct timespec pause = {HOLD_MS / 1000, (HOLD_MS % 1000) * 1000000L};
            nanosleep(&pause, NULL);
            _exit(0);
        }
        held++;
    }
    while (wait(NULL) > 0)
        ;
    printf("held %d\n", held);
    return 0;
}

/* Adds two numbers. Built with AddressSanitizer (the strict tier), it first forks a child
 * that touches 768 MiB, a mebibyte at a time, and fails as the child did: the child has
 * no AddressSanitizer RSS check (a thread, which fork does not copy), so only a limit that
 * every process inherits holds it. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int hog_in_a_child(void)
{
#ifdef __SANITIZE_ADDRESS__
    pid_t child = fork();
    if (child < 0)
        return 1;
    if (child == 0) {
        for (int mib = 0; mib < 768; mib++) {
            char *block = malloc(1 << 20);
            if (block == NULL)
                _exit(1);
            memset(block, 0xab, 1 << 20);
        }
        _exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child)
        return 1;
    if (!WIFEXITED(status))
        return 1;
    return WEXITSTATUS(status);
#else
    return 0;
#endif
}

int main(void)
{
    int failed = hog_in_a_child();
    if (failed != 0)
        return failed;
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    printf("%d\n", a + b);
    return 0;
}

/* Four processes hold 16 MiB each at the same time: each is far below a 64 MiB limit on
 * its own, together they reach it with their libraries. A limit for the whole run stops
 * them; one with room to spare lets all four through. Prints "held N of 4", N the
 * processes that got their memory, once all have tried. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 3
#define EACH ((size_t)16 << 20)

static int hold(void)
{
    char *block = malloc(EACH);
    if (!block)
        return 0;
    memset(block, 0xab, EACH);
    return 1;
}

int main(void)
{
    /* Each child writes a byte on `ready` once it holds its memory, then holds it until
     * the parent closes `go`. */
    int ready[2], go[2];
    if (pipe(ready) != 0 || pipe(go) != 0)
        return 1;
    for (int i = 0; i < CHILDREN; i++) {
        if (fork() == 0) {
            close(ready[0]);
            close(go[1]);
            if (hold() && write(ready[1], "x", 1) != 1)
                _exit(1);
            close(ready[1]);
            char byte;
            while (read(go[0], &byte, 1) > 0)
                ;
            _exit(0);
        }
    }
    close(ready[1]);
    close(go[0]);
    int held = hold();
    char byte;
    for (int i = 0; i < CHILDREN && read(ready[0], &byte, 1) == 1; i++)
        held++;
    printf("held %d of 4\n", held);
    fflush(stdout);
    close(go[1]);
    while (wait(NULL) > 0)
        ;
    return 0;
}

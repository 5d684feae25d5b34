/* Sixteen hogs: the parent forks 15 children, and each of the 16 processes touches 24 MiB
 * (memset a mebibyte at a time, never checking malloc), 384 MiB held at once. Each stays
 * within a 64 MiB limit per process; a limit on the run as a whole stops them. The parent
 * prints "finished N", N the children that got all their memory and held it while the
 * others got theirs ("finished 15" under per-process limits only), and fails unless all
 * did; under a run's cgroup the OOM killer ends some of them first. With "exit" on stdin
 * it hogs nothing: it prints "exiting" and exits with status 3; with "hogs N M", N
 * processes touch M MiB each. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define STEP ((size_t)1 << 20)

static int children = 15;
static size_t each = (size_t)24 << 20;

static void hog(void)
{
    for (size_t touched = 0; touched < each; touched += STEP) {
        char *block = malloc(STEP);
        memset(block, 0xab, STEP);
    }
}

int main(void)
{
    char word[16] = "";
    int processes, mib;
    if (scanf("%15s", word) == 1 && strcmp(word, "exit") == 0) {
        puts("exiting");
        return 3;
    }
    if (strcmp(word, "hogs") == 0 && scanf("%d %d", &processes, &mib) == 2) {
        children = processes - 1;
        each = (size_t)mib << 20;
    }
    /* Each child says on `ready` that it has its memory, then holds it until the parent
     * closes `go`: all sixteen hold theirs at the same time. */
    int ready[2], go[2];
    if (pipe(ready) != 0 || pipe(go) != 0)
        return 1;
    for (int i = 0; i < children; i++) {
        pid_t child = fork();
        if (child < 0)
            break; /* at a process limit: the others still hog */
        if (child == 0) {
            close(ready[0]);
            close(go[1]);
            hog();
            char byte = 1;
            if (write(ready[1], &byte, 1) != 1)
                _exit(1);
            /* Closed, so that the parent's read ends once every child is ready or dead. */
            close(ready[1]);
            if (read(go[0], &byte, 1) < 0)
                _exit(1);
            _exit(0);
        }
    }
    close(ready[1]);
    close(go[0]);
    hog();
    char byte;
    while (read(ready[0], &byte, 1) == 1)
        ;
    close(go[1]);
    int finished = 0, status;
    while (wait(&status) > 0)
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
            finished++;
    printf("finished %d\n", finished);
    /* A run that lost hogs ends in failure: the judge then looks for what stopped them. */
    return finished == children ? 0 : 1;
}

/* A "compiler" that takes what it can instead of compiling: run by clings as $CC, it
 * answers `--version` and the sanitizer probe like a compiler, but when asked to build
 * (`-MD`, the dependency list clings asks for) it reserves address space, writes one file,
 * and starts processes until each is refused, says on stderr how much it got, and fails;
 * or, when the source holds `GREEDY_SLEEP`, waits for ever. The compile's limits count
 * what a compiler can actually take. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int build = 0;
    const char *source = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--version")) {
            puts("greedy 1.0");
            return 0;
        }
        build |= !strcmp(argv[i], "-MD");
        size_t length = strlen(argv[i]);
        if (length > 2 && !strcmp(argv[i] + length - 2, ".c"))
            source = argv[i];
    }
    if (!build)
        return 0;
    static char text[1 << 16];
    FILE *file = source ? fopen(source, "r") : NULL;
    size_t length = file ? fread(text, 1, sizeof text - 1, file) : 0;
    text[length] = '\0';
    if (strstr(text, "GREEDY_SLEEP"))
        for (;;)
            pause();

    long reserved = 0; /* MiB of address space, never touched */
    while (reserved < 1 << 20 && malloc(16 << 20))
        reserved += 16;
    fprintf(stderr, "reserved %ld MiB\n", reserved);

    signal(SIGXFSZ, SIG_IGN);
    static char chunk[1 << 16];
    long written = 0;
    int out = open("greedy.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    while (out >= 0 && written < 1L << 30) {
        ssize_t wrote = write(out, chunk, sizeof chunk);
        if (wrote <= 0)
            break;
        written += wrote;
    }
    unlink("greedy.out");
    fprintf(stderr, "wrote %ld bytes\n", written);

    int forked = 0;
    for (; forked < 1000; forked++) {
        pid_t child = fork();
        if (child < 0)
            break;
        if (child == 0) {
            pause();
            _exit(0);
        }
    }
    fprintf(stderr, "forked %d processes\n", forked);
    return 1;
}

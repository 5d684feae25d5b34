/* Writes one file 4 KiB at a time until a write is refused, then, that file removed,
 * files of 256 KiB until one is refused (at most 8 MiB in all), and says how many bytes
 * each way got written: the file size limit, and the space of the scratch directory,
 * count what a program can actually write. SIGXFSZ is ignored, so a write past the
 * limit fails instead of killing the program. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char chunk[4096];

/* Bytes written to `name`, up to `most`, until a write is refused. */
static long fill(const char *name, long most)
{
    int file = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    long written = 0;
    while (file >= 0 && written < most) {
        ssize_t wrote = write(file, chunk, sizeof chunk);
        if (wrote <= 0)
            break;
        written += wrote;
    }
    if (file >= 0)
        close(file);
    return written;
}

int main(void)
{
    signal(SIGXFSZ, SIG_IGN);
    memset(chunk, 'x', sizeof chunk);
    printf("one file: %ld bytes\n", fill("one", 64L << 20));
    unlink("one");
    long total = 0;
    for (int i = 0; total < 8L << 20; i++) {
        char name[32];
        snprintf(name, sizeof name, "part%d", i);
        long wrote = fill(name, 256 << 10);
        total += wrote;
        if (wrote < 256 << 10)
            break;
    }
    printf("many files: %ld bytes\n", total);
    return 0;
}

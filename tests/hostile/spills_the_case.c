/* Tries every way a run reaches a report to spill its case into it. Two numbers are a sum,
 * done right; any other input starts with a word that says how to fail, and each way
 * copies what the program was given (its input, the file given.txt, its arguments, and
 * the input again in hex) where some report reads it:
 *   echo       on stdout (a diff quotes it)       file NAME  into the file NAME (a file's diff)
 *   missing    leaves no file                     status     exits with 223
 *   nonzero    exits with 229                     crash      raises SIGBUS
 *   sanitizer  in a sanitizer line (sum.c:4321)   timeout    loops
 *   flood      on stdout without end              memory     allocates without end
 * and every way copies it on stderr first. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char input[8192];
static size_t length;

static void spill(FILE *to, int argc, char **argv)
{
    fwrite(input, 1, length, to);
    FILE *given = fopen("given.txt", "r");
    if (given) {
        int c;
        while ((c = getc(given)) != EOF)
            putc(c, to);
        fclose(given);
    }
    for (int i = 1; i < argc; i++)
        fprintf(to, "%s\n", argv[i]);
    for (size_t i = 0; i < length; i++)
        fprintf(to, "%02x", (unsigned char)input[i]);
    putc('\n', to);
}

int main(int argc, char **argv)
{
    length = fread(input, 1, sizeof input - 1, stdin);
    int a, b;
    if (sscanf(input, "%d %d", &a, &b) == 2) {
        printf("%d\n", a + b);
        return 0;
    }
    char how[32] = "", name[256] = "";
    sscanf(input, "%31s %255s", how, name);
    spill(stderr, argc, argv);
    if (strcmp(how, "echo") == 0)
        spill(stdout, argc, argv);
    else if (strcmp(how, "file") == 0) {
        FILE *file = fopen(name, "w");
        if (file) {
            spill(file, argc, argv);
            fclose(file);
        }
    } else if (strcmp(how, "status") == 0)
        return 223;
    else if (strcmp(how, "nonzero") == 0)
        return 229;
    else if (strcmp(how, "crash") == 0)
        raise(SIGBUS);
    else if (strcmp(how, "sanitizer") == 0) {
        for (size_t i = 0; i < length; i++)
            if (input[i] == '\n')
                input[i] = ' ';
        fprintf(stderr, "sum.c:4321:1: runtime error: %s\n", input);
        exit(86);
    } else if (strcmp(how, "timeout") == 0)
        for (volatile int spin = 0;; spin++) {
        }
    else if (strcmp(how, "flood") == 0)
        for (;;)
            spill(stdout, argc, argv);
    else if (strcmp(how, "memory") == 0)
        for (;;)
            memset(malloc(1 << 20), 0xab, 1 << 20);
    return 0;
}

/* A checker with a bug on large inputs: from 1000 on it quotes the input, the answer and
 * the program's output on stderr (in bold: a terminal's escapes) and ends with neither 42
 * nor 43; below, it accepts. */
#include <stdio.h>

static void quote(const char *what, FILE *from)
{
    int c;
    fprintf(stderr, " %s: ", what);
    while (from && (c = getc(from)) != EOF)
        putc(c, stderr);
}

int main(int argc, char **argv)
{
    long n = 0;
    FILE *input = argc > 1 ? fopen(argv[1], "r") : NULL;
    if (!input || fscanf(input, "%ld", &n) != 1 || n < 1000)
        return 42;
    rewind(input);
    fputs("checker: \033[1mcannot judge\033[0m", stderr);
    quote("input", input);
    quote("answer", argc > 2 ? fopen(argv[2], "r") : NULL);
    quote("output", stdin);
    return 3;
}

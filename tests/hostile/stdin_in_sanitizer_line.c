/* A fake sanitizer report: copies all of its stdin into a line shaped like
 * UndefinedBehaviorSanitizer's (`file:line:col: runtime error: ...`) on stderr and exits
 * with the sanitizer's exit code (86), so a report that quotes the line quotes the input. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    char input[4096];
    size_t length = fread(input, 1, sizeof input - 1, stdin);
    input[length] = '\0';
    for (size_t i = 0; i < length; i++)
        if (input[i] == '\n')
            input[i] = ' ';
    fprintf(stderr, "x.c:1:1: runtime error: %s\n", input);
    exit(86);
}

/* Prints the file whose path is on stdin, or "cannot open" when it may not: a test puts
 * a file where programs must not see it. */
#include <stdio.h>

int main(void)
{
    char path[4096];
    if (scanf("%4095s", path) != 1)
        return 1;
    FILE *file = fopen(path, "r");
    if (!file) {
        puts("cannot open");
        return 0;
    }
    int c;
    while ((c = getc(file)) != EOF)
        putchar(c);
    fclose(file);
    return 0;
}

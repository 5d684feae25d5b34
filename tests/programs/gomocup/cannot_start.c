/* A Gomocup engine that cannot start: it says why on stderr (with a terminal's escape
 * sequence in it) and exits with status 3 before it reads a command. */
#include <stdio.h>

int main(void)
{
    fprintf(stderr, "\n  cannot open its opening book \x1b[2J(book.bin)\nsecond line\n");
    return 3;
}

/* Bytes XML cannot hold: NUL, SOH, ESC, a non-character (U+FFFF) and invalid UTF-8, in a
 * fake sanitizer line on stderr (so a report quotes them) and on stdout. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    fwrite("\x01\x1b\x00\xef\xbf\xbf\xff\xfe\n", 1, 9, stdout);
    fputs("x.c:1:1: runtime error: \x01\x1b[2J", stderr);
    fwrite("\x00\xef\xbf\xbf\xff\xfe\x0b\n", 1, 8, stderr);
    exit(86);
}

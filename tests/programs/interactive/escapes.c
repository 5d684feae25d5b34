/* Guesses with a terminal's escape sequence after the number: a report that quotes the
 * conversation, or the referee's message about it, quotes the sequence. */
#include <stdio.h>

int main(void) {
    printf("1\033]0;pwned\007\n");
    fflush(stdout);
    char answer[32];
    while (scanf("%31s", answer) == 1) {}
    return 0;
}

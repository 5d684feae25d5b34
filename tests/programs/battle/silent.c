/* Reads its colour, then waits for ever without a move, its input's end included. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char me;
    if (scanf(" %c", &me) != 1) return 0;
    for (;;) sleep(1);
}

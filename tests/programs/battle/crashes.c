/* Reads its colour, then writes through a null pointer. */
#include <stdio.h>

int main(void) {
    char me;
    volatile int *nowhere = NULL;
    if (scanf(" %c", &me) != 1) return 0;
    *nowhere = 1;
    return 0;
}

/* A checker with a bug of its own: it ends with neither 42 nor 43. */
#include <stdio.h>

int main(void) {
    fputs("checker: cannot parse\n", stderr);
    return 3;
}

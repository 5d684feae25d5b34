/* A referee with a bug of its own: it crashes. */
#include <stdlib.h>

int main(void) {
    abort();
}

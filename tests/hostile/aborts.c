/* Gives up with abort(). */
#include <stdlib.h>

int main(void)
{
    abort();
}

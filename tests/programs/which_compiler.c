/* Prints which compiler built it: each compiler wrapper of the tests defines COMPILER. */
#include <stdio.h>

#ifndef COMPILER
#define COMPILER "unknown"
#endif

int main(void)
{
    puts(COMPILER);
    return 0;
}

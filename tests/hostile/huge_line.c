/* One huge line: a gigabyte of 'x' and never a newline. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    static char chunk[1 << 16];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < (1 << 14); i++)
        fwrite(chunk, 1, sizeof chunk, stdout);
    return 0;
}

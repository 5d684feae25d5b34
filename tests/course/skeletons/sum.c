#include <stdio.h>

int main(void)
{
    /* TODO: read two integers and print their sum */
    return 0;
}

#include <stdio.h>

int main(void)
{
    /* TODO: greet the world with puts */
    return 0;
}

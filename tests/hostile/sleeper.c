/* Sleeps for a minute, then answers. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    sleep(60);
    puts("3");
    return 0;
}

/* Opens /dev/null until it cannot, and says how many it opened beside stdin, stdout and
 * stderr: the open-files limit counts what a program can actually hold. */
#include <fcntl.h>
#include <stdio.h>

int main(void)
{
    int opened = 0;
    while (opened < 100000 && open("/dev/null", O_RDONLY) >= 0)
        opened++;
    printf("opened %d\n", opened);
    return 0;
}

/* Creates empty files in its working directory until it cannot, 20,000 at most, and prints
 * "made N": an empty file costs no byte, only an inode. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    int made = 0;
    char name[32];
    for (int i = 0; i < 20000; i++) {
        snprintf(name, sizeof name, "f%d", i);
        int fd = open(name, O_WRONLY | O_CREAT, 0644);
        if (fd < 0)
            break;
        close(fd);
        made++;
    }
    printf("made %d\n", made);
    return 0;
}

/* Leaves memory charged to its run's cgroup after it is gone. With "park PATH MIB" on stdin
 * it writes MIB MiB to the file PATH (on a tmpfs outside the run: the pages stay charged to
 * the cgroup of the process that wrote them for as long as the file exists) and prints
 * "parked MIB"; with "use MIB" it touches MIB MiB of its own memory and prints "used MIB":
 * in the cgroup of a run that parked, it would run out of memory below its limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((size_t)1 << 20)

int main(void)
{
    char word[8], path[4096];
    int mib;
    if (scanf("%7s", word) != 1)
        return 1;
    if (strcmp(word, "park") == 0 && scanf("%4095s %d", path, &mib) == 2) {
        static char chunk[1 << 20];
        memset(chunk, 0xab, sizeof chunk);
        FILE *file = fopen(path, "w");
        if (file == NULL)
            return 2;
        for (int i = 0; i < mib; i++)
            if (fwrite(chunk, 1, sizeof chunk, file) != sizeof chunk)
                return 3;
        if (fclose(file) != 0)
            return 3;
        printf("parked %d\n", mib);
        return 0;
    }
    if (strcmp(word, "use") == 0 && scanf("%d", &mib) == 1) {
        for (int i = 0; i < mib; i++) {
            char *block = malloc(MIB);
            if (block == NULL)
                return 4;
            memset(block, 0xab, MIB);
        }
        printf("used %d\n", mib);
        return 0;
    }
    return 1;
}

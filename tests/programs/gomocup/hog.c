/* A Gomocup engine that sizes its table to twice the max_memory it is told and fills it:
 * its address space allows the allocation, but the memory it uses is past its limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char line[256];
    long long max_memory;
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "START", 5) == 0) {
            printf("OK\n");
        } else if (sscanf(line, "INFO max_memory %lld", &max_memory) == 1 && max_memory > 0) {
            size_t bytes = (size_t)max_memory * 2;
            char *table = malloc(bytes);
            if (!table)
                printf("ERROR Failed to allocate %lld KB\n", (long long)bytes / 1024);
            else
                memset(table, 1, bytes);
        } else if (strncmp(line, "BEGIN", 5) == 0 || strncmp(line, "TURN", 4) == 0) {
            printf("0,0\n");
        }
        fflush(stdout);
    }
    return 0;
}

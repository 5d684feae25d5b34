/* Reopens its stdin (the case's input) through /proc for writing and appends to it, so that the fixture would change for every later run. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    const char *forged = "forged by the program\n";
    int fd = open("/proc/self/fd/0", O_WRONLY | O_APPEND);
    int wrote = fd >= 0 && write(fd, forged, strlen(forged)) > 0;
    int direct = write(0, forged, strlen(forged)) > 0;
    printf("%s\n", wrote || direct ? "changed the input" : "input unchanged");
    return 0;
}

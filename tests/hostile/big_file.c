/* Writes a 16 MiB file in its working directory, past the file size limit. */
#include <stdio.h>
#include <string.h>

int main(void)
{
    static char chunk[1 << 16];
    memset(chunk, 'x', sizeof chunk);
    FILE *file = fopen("big.txt", "wb");
    if (!file)
        return 1;
    for (int i = 0; i < 256; i++)
        fwrite(chunk, 1, sizeof chunk, file);
    fclose(file);
    puts("3");
    return 0;
}

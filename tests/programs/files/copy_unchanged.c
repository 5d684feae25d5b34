/* Forgets to upper-case: out.txt differs. */
#include <stdio.h>

int main(int argc, char **argv) {
    FILE *in = fopen(argv[1], "r");
    if (!in) return 1;
    FILE *out = fopen("out.txt", "w");
    int c, n = 0;
    while ((c = fgetc(in)) != EOF) {
        fputc(c, out);
        n++;
    }
    fclose(in);
    fclose(out);
    printf("copied %d bytes\n", n);
    return 0;
}

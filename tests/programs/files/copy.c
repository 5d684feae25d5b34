/* Copies the file named by its argument to out.txt, upper-cased; exit 1 if it cannot. */
#include <ctype.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 1;
    }
    FILE *out = fopen("out.txt", "w");
    int c, n = 0;
    while ((c = fgetc(in)) != EOF) {
        fputc(toupper(c), out);
        n++;
    }
    fclose(in);
    fclose(out);
    printf("copied %d bytes\n", n);
    return 0;
}

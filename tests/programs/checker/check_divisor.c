/* The checker of the divisor exercise, as Kattis output validators are written:
 * check_divisor INPUT ANSWER FEEDBACK_DIR < output; 42 accepted, 43 rejected. */
#include <stdio.h>
#include <string.h>

static int reject(const char *dir, const char *why, int d, int n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/teammessage.txt", dir);
    FILE *message = fopen(path, "w");
    if (message) {
        fprintf(message, why, d, n);
        fclose(message);
    }
    return 43;
}

int main(int argc, char **argv) {
    if (argc != 4) return 1;
    FILE *input = fopen(argv[1], "r");
    int n, d;
    if (!input || fscanf(input, "%d", &n) != 1) return 1;
    fclose(input);
    if (scanf("%d", &d) != 1) return reject(argv[3], "no number in the output%.0d%.0d", 0, 0);
    if (d <= 1 || d >= n || n % d != 0)
        return reject(argv[3], "%d is not a proper divisor of %d", d, n);
    return 42;
}

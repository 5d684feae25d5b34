/* Guesses by halving the range: at most ten guesses for 1..1000. Once it has found the
 * number it reads until its input ends, then exits. */
#include <stdio.h>
#include <string.h>

int main(void) {
    int low = 1, high = 1000;
    char answer[32];
    while (low <= high) {
        int guess = (low + high) / 2;
        printf("%d\n", guess);
        fflush(stdout);
        if (scanf("%31s", answer) != 1 || strcmp(answer, "correct") == 0) break;
        if (strcmp(answer, "higher") == 0) low = guess + 1;
        else high = guess - 1;
    }
    while (scanf("%31s", answer) == 1)
        ;
    return 0;
}

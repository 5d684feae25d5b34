/* Finds the number, then never ends: it sleeps on after the referee has gone. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
    for (;;) sleep(1);
}

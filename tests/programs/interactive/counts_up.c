/* Counts up from 1: right only for small numbers, and chatty about it. */
#include <stdio.h>
#include <string.h>

int main(void) {
    char answer[32];
    for (int guess = 1;; guess++) {
        printf("%d\n", guess);
        fflush(stdout);
        if (scanf("%31s", answer) != 1 || strcmp(answer, "correct") == 0) return 0;
    }
}

/* Answers with a line that is not a move, and a terminal escape in it. */
#include <stdio.h>

int main(void) {
    char me;
    int r, c;
    if (scanf(" %c", &me) != 1) return 0;
    if (me == 'O' && scanf("%d %d", &r, &c) != 2) return 0;
    printf("hello \033[2J world\n");
    fflush(stdout);
    while (scanf("%d %d", &r, &c) == 2) {}
    return 0;
}

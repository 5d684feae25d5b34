/* Plays the centre every time: its second move is on its own stone. */
#include <stdio.h>

int main(void) {
    char me;
    int r, c;
    if (scanf(" %c", &me) != 1) return 0;
    if (me == 'O' && scanf("%d %d", &r, &c) != 2) return 0;
    for (;;) {
        printf("7 7\n");
        fflush(stdout);
        if (scanf("%d %d", &r, &c) != 2) return 0;
    }
}

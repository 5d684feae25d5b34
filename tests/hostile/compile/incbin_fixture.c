/* Tries to embed the course's expected output (and a hidden case) into the program with .incbin, then print it. */
#include <stdio.h>
__asm__(".section .rodata\n.global leaked\nleaked:\n.incbin \"../../course/fixtures/check_win/01_empty_board.out\"\n.byte 0\n.previous");
extern const char leaked[];
int main(void) { fputs(leaked, stdout); return 0; }

/* Terminal escapes: prints ESC/OSC/CSI sequences (write the clipboard with OSC 52, set the
 * title, clear the screen, a bidi override) on stdout and stderr, then fails with status 1
 * on a negative sum so one case shows a diff and the other its stderr. */
#include <stdio.h>

int main(void)
{
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    printf("\033]52;c;Y2xpbmdzLXB3bmVk\a\033]0;pwned title\a\033[2J\033[H%d\r\n", a + b);
    fprintf(stderr, "\033[31mred\033[0m \033]8;;http://evil.example/\033\\link\033]8;;\033\\"
                    " \xe2\x80\xae!won\x01\x7f\n");
    return a + b < 0;
}

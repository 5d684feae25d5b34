/* The lesson's classic overflow: a string read into an array with no room for its '\0'.
   "-5" is two characters and scanf writes three; nothing in the output shows it, and
   UBSan does not see writes done inside scanf: only AddressSanitizer does. */
#include <stdio.h>
#include <stdlib.h>

static char first[2];

int main(void)
{
    int b;
    if (scanf("%s %d", first, &b) != 2)
        return 1;
    printf("%d\n", atoi(first) + b);
    return 0;
}

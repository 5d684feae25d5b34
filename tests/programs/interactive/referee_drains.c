/* referee.c's game, ended the way some Kattis interactors end one: once the number is
 * guessed the referee closes its output, then reads what the program still says until
 * its input ends, and only then exits (42). */
#include <poll.h>
#include <stdio.h>
#include <string.h>

static const char *feedback;

static int reject(const char *why, const char *detail) {
    char path[4096];
    snprintf(path, sizeof path, "%s/teammessage.txt", feedback);
    FILE *message = fopen(path, "w");
    if (message) {
        fprintf(message, why, detail);
        fclose(message);
    }
    return 43;
}

int main(int argc, char **argv) {
    if (argc != 4) return 1;
    feedback = argv[3];
    FILE *input = fopen(argv[1], "r");
    int secret;
    if (!input || fscanf(input, "%d", &secret) != 1) return 1;
    fclose(input);
    char line[256];
    for (int guesses = 1; guesses <= 10; guesses++) {
        struct pollfd in = {.fd = 0, .events = POLLIN};
        if (poll(&in, 1, 1000) == 0) return reject("no guess within 1 s%s (did you fflush?)", "");
        if (!fgets(line, sizeof line, stdin)) return reject("the program ended before guessing the number%s", "");
        int guess;
        char extra;
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "%d %c", &guess, &extra) != 1) return reject("not a number: '%s'", line);
        if (guess == secret) {
            puts("correct");
            fclose(stdout);
            while (fgets(line, sizeof line, stdin))
                ;
            return 42;
        }
        puts(guess < secret ? "higher" : "lower");
        fflush(stdout);
    }
    return reject("ten guesses and still not the number%s", "");
}

/* The referee of a guessing game, as Kattis interactors are written:
 * referee INPUT ANSWER FEEDBACK_DIR, talking with the program on stdin/stdout.
 * INPUT holds the secret (1..1000), and "drain" after it for a referee that, once the
 * number is guessed, closes its output and reads what the program still says until its
 * input ends before it exits. The program guesses, one number a line; the referee answers
 * "higher", "lower" or "correct"; ten guesses at most.
 * 42: guessed; 43: anything else, with a message for the student. */
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
    char mode[16] = "";
    if (!input || fscanf(input, "%d", &secret) != 1) return 1;
    int drain = fscanf(input, "%15s", mode) == 1 && strcmp(mode, "drain") == 0;
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
            fflush(stdout);
            if (drain) {
                fclose(stdout);
                while (fgets(line, sizeof line, stdin))
                    ;
            }
            return 42;
        }
        puts(guess < secret ? "higher" : "lower");
        fflush(stdout);
    }
    return reject("ten guesses and still not the number%s", "");
}

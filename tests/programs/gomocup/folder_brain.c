/* A Gomocup engine that lives in a folder, as strong engines do: it reads its
 * weights (weights.txt) beside it, in its working directory, when a game starts,
 * and keeps a count of its games in the folder it is told (INFO folder), which
 * it writes and reads back each game. Then it looks where it should not, and says
 * what it found in MESSAGE lines: a file outside its folder (SECRET, given when
 * it is built), its own folder written to, and the folders of other engines
 * beside its own. It plays the first empty cell, row by row (BOARD too). With a
 * file `spin` beside it, it starts fifteen children that spin for ever, each in a
 * session of its own, as the battle tests' starver does. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef SECRET
#define SECRET "/nonexistent"
#endif

static int taken[15][15];
static char weights[64] = "none";

static void play(void)
{
    for (int cell = 0; cell < 225; cell++)
        if (!taken[cell / 15][cell % 15]) {
            taken[cell / 15][cell % 15] = 1;
            printf("%d,%d\n", cell % 15, cell / 15);
            return;
        }
}

/* Counts this game in the folder: the count read back, 0 if it could not. */
static int count_game(const char *folder)
{
    char path[4200];
    int games = 0, read_back = 0;
    snprintf(path, sizeof path, "%s/games.txt", folder);
    FILE *file = fopen(path, "r");
    if (file) {
        if (fscanf(file, "%d", &games) != 1)
            games = 0;
        fclose(file);
    }
    file = fopen(path, "w");
    if (!file)
        return 0;
    fprintf(file, "%d\n", games + 1);
    fclose(file);
    file = fopen(path, "r");
    if (file) {
        if (fscanf(file, "%d", &read_back) != 1)
            read_back = 0;
        fclose(file);
    }
    return read_back;
}

/* The folders beside this engine's own (its folder's parent's siblings): how many
 * other engines' games.txt it can read. */
static int others_seen(const char *folder)
{
    char mine[4096], parent[4096];
    snprintf(mine, sizeof mine, "%s", folder);
    char *slash = strrchr(mine, '/');
    if (!slash)
        return 0;
    *slash = '\0';                          /* the engine's own holder */
    snprintf(parent, sizeof parent, "%s", mine);
    slash = strrchr(parent, '/');
    if (!slash)
        return 0;
    *slash = '\0';                          /* where the holders are */
    DIR *dir = opendir(parent[0] ? parent : "/");
    if (!dir)
        return 0;
    int seen = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        char other[8300];
        snprintf(other, sizeof other, "%s/%s", parent, entry->d_name);
        if (strcmp(other, mine) == 0 || entry->d_name[0] == '.')
            continue;
        snprintf(other, sizeof other, "%s/%s/folder/games.txt", parent, entry->d_name);
        FILE *file = fopen(other, "r");
        if (file) {
            seen++;
            fclose(file);
        }
    }
    closedir(dir);
    return seen;
}

int main(void)
{
    char line[4200];
    int x, y, who;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "ABOUT") == 0) {
            printf("name=\"folderbrain\", version=\"1\"\n");
        } else if (strncmp(line, "START", 5) == 0) {
            FILE *file = fopen("weights.txt", "r");
            if (!file || !fgets(weights, sizeof weights, file)) {
                printf("ERROR no weights.txt beside me\n");
            } else {
                weights[strcspn(weights, "\n")] = '\0';
                memset(taken, 0, sizeof taken);
                if (access("spin", F_OK) == 0)
                    for (int child = 0; child < 15; child++)
                        if (fork() == 0) {
                            setsid();
                            for (;;)
                                ;
                        }
                printf("OK\n");
            }
            if (file)
                fclose(file);
        } else if (strncmp(line, "INFO folder ", 12) == 0) {
            const char *folder = line + 12;
            FILE *secret = fopen(SECRET, "r");
            FILE *mine = fopen("written.txt", "w");
            printf("MESSAGE weights %s game %d\n", weights, count_game(folder));
            printf("MESSAGE secret %s, own folder %s, others seen %d\n",
                   secret ? "read" : "hidden", mine ? "written" : "read-only", others_seen(folder));
            if (secret)
                fclose(secret);
            if (mine)
                fclose(mine);
        } else if (strncmp(line, "INFO", 4) == 0) {
            /* nothing to answer */
        } else if (strcmp(line, "BOARD") == 0) {
            memset(taken, 0, sizeof taken);
            while (fgets(line, sizeof line, stdin) && strncmp(line, "DONE", 4) != 0)
                if (sscanf(line, "%d,%d,%d", &x, &y, &who) == 3 && x >= 0 && x < 15 && y >= 0 && y < 15)
                    taken[y][x] = who;
            play();
        } else if (strcmp(line, "BEGIN") == 0) {
            play();
        } else if (sscanf(line, "TURN %d,%d", &x, &y) == 2) {
            if (x >= 0 && x < 15 && y >= 0 && y < 15)
                taken[y][x] = 2;
            play();
        } else if (strcmp(line, "END") == 0) {
            return 0;
        }
        fflush(stdout);
    }
    return 0;
}

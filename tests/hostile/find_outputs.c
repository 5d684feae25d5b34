/* A cheater: reads its input, then looks for the course's fixtures in every directory it
 * can reach (the parents of its working directory, and the working directories of the
 * processes it can see in /proc) for a `.in` file with the same content, and prints the
 * `.out` beside it: the expected output. Every `.out` it finds is named on stderr. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char input[1 << 16];
static size_t input_length;
static int visited, found, cheated;

static int same_as_input(const char *path)
{
    static char text[1 << 16];
    FILE *file = fopen(path, "rb");
    if (!file)
        return 0;
    size_t length = fread(text, 1, sizeof text, file);
    fclose(file);
    return length == input_length && memcmp(text, input, length) == 0;
}

static void print_file(const char *path)
{
    char buffer[4096];
    size_t length;
    FILE *file = fopen(path, "rb");
    if (!file)
        return;
    while ((length = fread(buffer, 1, sizeof buffer, file)) > 0)
        fwrite(buffer, 1, length, stdout);
    fclose(file);
}

static void search(const char *dir, int depth)
{
    if (depth > 3 || visited > 20000 || cheated)
        return;
    visited++;
    DIR *listing = opendir(dir);
    if (!listing)
        return;
    struct dirent *entry;
    while ((entry = readdir(listing)) && !cheated) {
        const char *name = entry->d_name;
        if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "proc") ||
            !strcmp(name, "sys"))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", name);
        struct stat info;
        if (lstat(path, &info) != 0)
            continue;
        size_t length = strlen(path);
        if (S_ISDIR(info.st_mode)) {
            search(path, depth + 1);
        } else if (S_ISREG(info.st_mode) && length > 4 && !strcmp(path + length - 4, ".out")) {
            found++;
            fprintf(stderr, "found %s\n", path);
            char in[PATH_MAX];
            snprintf(in, sizeof in, "%.*s.in", (int)(length - 4), path);
            if (same_as_input(in)) {
                print_file(path);
                cheated = 1;
            }
        }
    }
    closedir(listing);
}

int main(void)
{
    input_length = fread(input, 1, sizeof input, stdin);
    char dir[PATH_MAX];
    if (getcwd(dir, sizeof dir)) {
        for (;;) {
            search(dir, 0);
            char *slash = strrchr(dir, '/');
            if (!slash || slash == dir)
                break;
            *slash = '\0';
        }
    }
    search("/", 0);
    DIR *processes = opendir("/proc");
    struct dirent *entry;
    while (processes && (entry = readdir(processes)) && !cheated) {
        char link[300], target[PATH_MAX];
        snprintf(link, sizeof link, "/proc/%s/cwd", entry->d_name);
        ssize_t length = readlink(link, target, sizeof target - 1);
        if (length > 0) {
            target[length] = '\0';
            search(target, 0);
        }
    }
    if (!cheated)
        printf("found %d expected outputs, none for this input\n", found);
    return 0;
}

/* A vandal: from every parent of its working directory and from the working directories
 * of the other processes it can see, it tries to delete `info.toml` and `.clings-state.json`,
 * to overwrite every `.c`, `.in`, `.out` and `.toml` file it finds, and to leave a
 * `VANDALISED` file behind; it also writes a mark at the path its input names (a file of
 * the test's own, outside the sandbox). It reports what it managed to do. */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int visited, damaged;

static int ends_with(const char *text, const char *end)
{
    size_t length = strlen(text), tail = strlen(end);
    return length >= tail && !strcmp(text + length - tail, end);
}

static void attack(const char *dir, int depth)
{
    if (depth > 3 || visited > 20000)
        return;
    visited++;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/VANDALISED", dir);
    int created = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (created >= 0) {
        damaged++;
        printf("created %s\n", path);
        close(created);
    }
    const char *victims[] = {"info.toml", ".clings-state.json"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, victims[i]);
        if (unlink(path) == 0) {
            damaged++;
            printf("deleted %s\n", path);
        }
    }
    DIR *listing = opendir(dir);
    if (!listing)
        return;
    struct dirent *entry;
    while ((entry = readdir(listing))) {
        const char *name = entry->d_name;
        if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "proc") ||
            !strcmp(name, "sys") || !strcmp(name, "dev"))
            continue;
        snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", name);
        struct stat info;
        if (lstat(path, &info) != 0)
            continue;
        if (S_ISDIR(info.st_mode)) {
            attack(path, depth + 1);
        } else if (S_ISREG(info.st_mode) &&
                   (ends_with(name, ".c") || ends_with(name, ".in") || ends_with(name, ".out") ||
                    ends_with(name, ".toml"))) {
            int file = open(path, O_WRONLY | O_TRUNC);
            if (file >= 0) {
                damaged++;
                printf("overwrote %s\n", path);
                if (write(file, "vandalised\n", 11) < 0)
                    perror(path);
                close(file);
            }
        }
    }
    closedir(listing);
}

int main(void)
{
    char mark_path[PATH_MAX];
    if (scanf("%4095s", mark_path) == 1) {
        FILE *mark = fopen(mark_path, "w");
        if (mark) {
            damaged++;
            printf("wrote %s\n", mark_path);
            fclose(mark);
        }
    }
    char dir[PATH_MAX], own[PATH_MAX] = "";
    if (getcwd(dir, sizeof dir)) {
        strcpy(own, dir);
        for (char *slash; (slash = strrchr(dir, '/')) && slash != dir;) {
            *slash = '\0';
            attack(dir, 0);
        }
    }
    DIR *processes = opendir("/proc");
    struct dirent *entry;
    while (processes && (entry = readdir(processes))) {
        char link[300], target[PATH_MAX];
        snprintf(link, sizeof link, "/proc/%s/cwd", entry->d_name);
        ssize_t length = readlink(link, target, sizeof target - 1);
        if (length > 0) {
            target[length] = '\0';
            if (strcmp(target, own) != 0)
                attack(target, 0);
        }
    }
    printf("damaged %d things\n", damaged);
    return 0;
}

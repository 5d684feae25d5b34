/* Looks for what an earlier case left behind, then leaves all it can for the next one:
 * files in its working directory (a subdirectory, a hidden file, a FIFO) and beside its
 * own program (where a warm sandbox copies each run's program in), a process that hides
 * in a session of its own holding an abstract socket, System V shared memory, a message
 * queue and a semaphore, a POSIX message queue, extended attributes, a timestamp and a
 * mode on its working directory, and a pid count (it forks, so a later run in the same
 * pid namespace would get a higher pid). Cases graded one after another may share a warm
 * sandbox: none of this may reach the next case.
 * stdin: "easy"; "forge" to also put a program of its own in its program's place;
 * "lockexe" to also leave, beside its program, a directory its owner made unreadable; or
 * "hard" to leave such a directory in its working directory. (Beside its program both
 * are refused: that directory is read-only to the run. In its working directory the
 * sandbox need not empty it: the next run gets a new one.)
 * stdout: "left: nothing" when nothing was found, else what was; then the program's IPC
 * namespace, which tells whether two cases shared a sandbox. Exits 0. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

#define KEY 0x5eed
#define STAMP 1234567
#define QUEUE "/clings-leftover"
#define SOCKET_NAME "clings-leftover"

static int found;

static void report(const char *what)
{
    printf("left: %s\n", what);
    found++;
}

static struct sockaddr_un abstract_address(socklen_t *length)
{
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    /* sun_path[0] stays 0: an abstract name, in the network namespace, not a file. */
    memcpy(address.sun_path + 1, SOCKET_NAME, strlen(SOCKET_NAME));
    *length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(SOCKET_NAME));
    return address;
}

/* The directory of this program's file, in `dir`; 0 when it is the root (a sandbox of
   one run), which holds the system's directories. */
static int program_dir(char *dir, size_t size)
{
    ssize_t length = readlink("/proc/self/exe", dir, size - 1);
    if (length <= 0)
        return 0;
    dir[length] = 0;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = 0;
    return 1;
}

static void look(void)
{
    char exe_dir[4096];
    DIR *dir;
    struct dirent *entry;
    if (program_dir(exe_dir, sizeof exe_dir)) {
        dir = opendir(exe_dir);
        while (dir && (entry = readdir(dir)))
            if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, "..") &&
                strcmp(entry->d_name, "program"))
                report(entry->d_name);
        if (dir)
            closedir(dir);
    }
    dir = opendir(".");
    while (dir && (entry = readdir(dir)))
        if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
            report(entry->d_name);
    if (dir)
        closedir(dir);
    dir = opendir("/proc");
    while (dir && (entry = readdir(dir))) {
        int pid = atoi(entry->d_name);
        if (pid > 1 && pid != getpid())
            report("a process");
    }
    if (dir)
        closedir(dir);
    char value[8];
    if (getxattr(".", "user.clings", value, sizeof value) >= 0)
        report("an extended attribute");
    struct stat here;
    if (stat(".", &here) == 0) {
        if (here.st_mtime == STAMP)
            report("a timestamp");
        if ((here.st_mode & 07777) != 0777)
            report("a mode");
    }
    /* The first process of a pid namespace of its own, after the run's init. */
    if (getpid() != 2)
        report("a pid count");
    if (shmget(KEY, 0, 0) >= 0)
        report("shared memory");
    if (msgget(KEY, 0) >= 0)
        report("a message queue");
    if (semget(KEY, 0, 0) >= 0)
        report("a semaphore");
    mqd_t queue = mq_open(QUEUE, O_RDONLY);
    if (queue != (mqd_t)-1)
        report("a POSIX message queue");
    socklen_t length;
    struct sockaddr_un address = abstract_address(&length);
    int client = socket(AF_UNIX, SOCK_STREAM, 0);
    if (connect(client, (struct sockaddr *)&address, length) == 0)
        report("a listening socket");
    close(client);
}

/* A directory with a file in it, made unreadable: its owner's helper cannot empty it. */
static void lock_up(const char *dir)
{
    char file[4300];
    snprintf(file, sizeof file, "%s/file", dir);
    mkdir(dir, 0755);
    close(open(file, O_CREAT | O_WRONLY, 0600));
    chmod(dir, 0);
}

static void leave(int hard, int forge, int lock_exe)
{
    char planted[4200], forged[4200], locked[4200];
    if (program_dir(planted, 4096)) {
        if (lock_exe) {
            snprintf(locked, sizeof locked, "%s/locked", planted);
            lock_up(locked);
        }
        /* Refused when the program runs as a user of its own (clings is root): a file
           beside the program, and a program of its own in its place, which the next case
           runs if the sandbox takes it for its copy of the build. */
        strcpy(forged, planted);
        strcat(planted, "/planted");
        close(open(planted, O_CREAT | O_WRONLY, 0755));
        strcat(forged, "/program");
        if (forge && unlink(forged) == 0) {
            FILE *script = fopen(forged, "w");
            if (script) {
                fputs("#!/bin/sh\necho 'left: a forged program'\n", script);
                fclose(script);
                chmod(forged, 0755);
            }
        }
    }
    FILE *file = fopen("note.txt", "w");
    if (file) {
        fputs("from an earlier case\n", file);
        fclose(file);
    }
    close(open(".hidden", O_CREAT | O_WRONLY, 0600));
    mkdir("deep", 0755);
    mkdir("deep/er", 0755);
    close(open("deep/er/file", O_CREAT | O_WRONLY, 0000));
    mkfifo("fifo", 0600);
    if (hard)
        lock_up("locked");
    for (int child = 0; child < 5; child++)
        if (fork() == 0)
            _exit(0);
    setxattr(".", "user.clings", "left", 4, 0);
    struct timespec times[2] = {{.tv_sec = STAMP}, {.tv_sec = STAMP}};
    utimensat(AT_FDCWD, ".", times, 0);
    chmod(".", 0755);
    shmget(KEY, 4096, IPC_CREAT | 0666);
    msgget(KEY, IPC_CREAT | 0666);
    semget(KEY, 1, IPC_CREAT | 0666);
    struct mq_attr attr = {.mq_maxmsg = 1, .mq_msgsize = 16};
    mq_open(QUEUE, O_CREAT | O_RDONLY, 0666, &attr);
    fflush(stdout);
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            socklen_t length;
            struct sockaddr_un address = abstract_address(&length);
            int server = socket(AF_UNIX, SOCK_STREAM, 0);
            bind(server, (struct sockaddr *)&address, length);
            listen(server, 1);
            signal(SIGTERM, SIG_IGN);
            signal(SIGHUP, SIG_IGN);
            for (;;)
                pause();
        }
        _exit(0);
    }
}

int main(void)
{
    char mode[16] = "";
    if (scanf("%15s", mode) != 1)
        return 1;
    look();
    if (!found)
        puts("left: nothing");
    char ns[64] = "";
    /* The IPC namespace is the sandbox's, whichever run: it tells whether two cases
       shared a sandbox. */
    if (readlink("/proc/self/ns/ipc", ns, sizeof ns - 1) < 0)
        strcpy(ns, "unknown");
    printf("sandbox %s\n", ns);
    leave(strcmp(mode, "hard") == 0, strcmp(mode, "forge") == 0, strcmp(mode, "lockexe") == 0);
    return 0;
}

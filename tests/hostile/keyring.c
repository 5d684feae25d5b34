/* Tries to leave a message for the next run in the kernel keyring, and to read one left
 * by an earlier run: the user keyring belongs to the user id, not to the run, so a key
 * stored there by one case (or one student) is there for the next one with the same id.
 * stdout has one fixed line per attempt, so that a contained run prints
 * "keyring read: refused" and "keyring write: refused"; stderr says why. Exits 0.
 * glibc has no wrapper for these calls: they go through syscall(). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* <linux/keyctl.h>; long, as syscall() passes every argument as one. */
#define KEY_SPEC_USER_KEYRING (-4L)
#define KEYCTL_SEARCH 10L
#define KEYCTL_READ 11L

#define NAME "clings-test"

static int refused(int error)
{
    return error == EPERM || error == EACCES || error == ENOSYS;
}

int main(void)
{
    long key = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", NAME, 0L);
    if (key >= 0) {
        char payload[256] = {0};
        long length = syscall(SYS_keyctl, KEYCTL_READ, key, payload, sizeof payload - 1);
        printf("keyring read: found \"%s\"\n", length >= 0 ? payload : "(unreadable)");
    } else if (refused(errno)) {
        printf("keyring read: refused\n");
        fprintf(stderr, "keyctl(KEYCTL_SEARCH): %s\n", strerror(errno));
    } else {
        /* ENOKEY: the keyring works and nothing was left in it. */
        printf("keyring read: nothing left\n");
        fprintf(stderr, "keyctl(KEYCTL_SEARCH): %s\n", strerror(errno));
    }

    char message[128];
    snprintf(message, sizeof message, "left by process %ld", (long)getpid());
    long added = syscall(SYS_add_key, "user", NAME, message, strlen(message),
                         KEY_SPEC_USER_KEYRING);
    if (added >= 0) {
        printf("keyring write: stored\n");
    } else {
        printf("keyring write: %s\n", refused(errno) ? "refused" : "failed");
        fprintf(stderr, "add_key: %s\n", strerror(errno));
    }
    return 0;
}

/* Phones home: connects to the TCP port named on its input, on this machine's loopback,
 * and says whether it got through. (Only loopback: a test never aims at another host.) */
#define _DEFAULT_SOURCE /* POSIX functions under -std=c99 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void reach(const char *address, int port)
{
    struct sockaddr_in peer = {0};
    peer.sin_family = AF_INET;
    peer.sin_port = htons((unsigned short)port);
    inet_pton(AF_INET, address, &peer.sin_addr);
    int sock = socket(AF_INET, SOCK_STREAM, 0);
    if (sock >= 0 && connect(sock, (struct sockaddr *)&peer, sizeof peer) == 0) {
        printf("reached %s:%d\n", address, port);
        if (write(sock, "hello\n", 6) < 0)
            perror("write");
    } else {
        printf("cannot reach %s:%d: %s\n", address, port, strerror(errno));
    }
    if (sock >= 0)
        close(sock);
}

int main(void)
{
    int port;
    if (scanf("%d", &port) != 1)
        return 1;
    reach("127.0.0.1", port);
    return 0;
}

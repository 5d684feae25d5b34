/* A #line directive: gcc then names "forged.c" (and any line) in its diagnostics, which
 * would become an annotation on a file that is not the graded one. */
#line 1 "forged.c"
int main(void)
{
    return undeclared;
}

/* A silent endless loop: reads nothing, prints nothing, spins for ever. */
int main(void)
{
    volatile unsigned long spins = 0;
    for (;;)
        spins++;
}

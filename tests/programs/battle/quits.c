/* Exits at once, without reading its colour or writing a move. */
int main(void)
{
    return 0;
}

/* Prints the sum only when the OOM killer would pick this program first
   (oom_score_adj 1000), else what its score is: the helper and bubblewrap, whose
   end would leave a run without a verdict, must never be picked before it. */
#include <stdio.h>

int main(void)
{
    int a, b, adj = 0;
    FILE *score = fopen("/proc/self/oom_score_adj", "r");
    if (score == NULL || fscanf(score, "%d", &adj) != 1)
        return 2;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    if (adj == 1000)
        printf("%d\n", a + b);
    else
        printf("oom_score_adj %d\n", adj);
    return 0;
}

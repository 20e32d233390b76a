/* A program outside gpuprims: checks that the library it loaded is the version of the
 * header it was compiled against, and sums 1..1000 on the CPU backend. */
#include <gpuprims.h>
#include <stdio.h>

int main(void) {
  if (gp_version_number() != GP_VERSION_NUMBER) {
    printf("header %d, library %d (%s)\n", GP_VERSION_NUMBER, gp_version_number(), gp_version());
    return 1;
  }
  gp_context *ctx;
  if (gp_create(&ctx, GP_BACKEND_CPU) != GP_OK) return 1;
  double v[1000];
  for (int i = 0; i < 1000; i++) v[i] = i + 1;
  double sum = 0;
  gp_status s = gp_reduce(ctx, GP_SUM, GP_F64, v, 1000, &sum, GP_REDUCE_AUTO);
  printf("%s %s %.1f\n", gp_version(), gp_status_string(s), sum);
  gp_destroy(ctx);
  return (s == GP_OK && sum == 500500.0) ? 0 : 1;
}

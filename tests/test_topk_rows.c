/* gp_topk_rows on the CPU backend: tests/topk_rows_cases.h (each row against gp_topk of
 * that row alone) and the argument errors. Runs everywhere. */
#include "topk_rows_cases.h"

int main(void) {
  gp_context *cpu = check_cpu_context();
  const size_t rows = tr_matrix(cpu, cpu);
  tr_errors(cpu);
  printf("test_topk_rows: %zu rows checked\n", rows);
  gp_destroy(cpu);
  return check_summary("test_topk_rows");
}

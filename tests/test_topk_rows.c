/* gp_topk_rows on the CPU backend: tests/topk_rows_cases.h (each row against gp_topk of
 * that row alone) and the argument errors, then the lengths around the CPU's cut-overs
 * from sorting a short row's key:index words whole (4-byte keys) or ranking its keys
 * (8-byte keys) to the buffered select (topk_cpu.c's TK_ROW_SORT_MAX = 256,
 * TK_ROW_RANK_MAX = 64), every dtype, many ties. Runs everywhere. */
#include "topk_rows_cases.h"

static size_t around_cutover(gp_context *cpu) {
  static const size_t cols[] = {2, 16, 31, 32, 33, 48, 64, 65, 128, 255, 256, 257, 511};
  size_t checked = 0;
  check_seed(29);
  for (int t = 0; t < GP_DTYPE_COUNT; t++)
    for (size_t ci = 0; ci < sizeof cols / sizeof *cols; ci++) {
      const size_t rows = 37, c = cols[ci];
      void *x = malloc(rows * c * gp_dtype_size((gp_dtype)t));
      tr_fill((gp_dtype)t, x, rows * c, ci % 2 ? 5 : 1000);
      const size_t ks[] = {1, 8, c / 2 + 1, c};
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
        if (ks[ki] > c) continue;
        checked += tr_check(cpu, cpu, (gp_dtype)t, x, rows, c, ks[ki], GP_DESCENDING);
        checked += tr_check(cpu, cpu, (gp_dtype)t, x, rows, c, ks[ki], GP_ASCENDING);
      }
      free(x);
    }
  return checked;
}

int main(void) {
  gp_context *cpu = check_cpu_context();
  const size_t rows = tr_matrix(cpu, cpu) + around_cutover(cpu);
  tr_errors(cpu);
  printf("test_topk_rows: %zu rows checked\n", rows);
  gp_destroy(cpu);
  return check_summary("test_topk_rows");
}

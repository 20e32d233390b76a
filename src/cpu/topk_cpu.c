/* CPU backend of gp_topk: every element's (key, index) of core/topk.h, sorted by key
 * then index (qsort), the first k kept. Simple and exact; O(n log n). */
#include "cpu/topk_cpu.h"
#include "core/topk.h"

#include <stdlib.h>
#include <string.h>

typedef struct topk_pair {
  uint64_t key, idx;
} topk_pair;

static int cmp_pair(const void *a, const void *b) {
  const topk_pair *x = (const topk_pair *)a, *y = (const topk_pair *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->idx < y->idx ? -1 : (x->idx > y->idx);
}

int gp_cpu_topk(gp_dtype type, const void *in, size_t n, size_t k, gp_order order, void *values,
                uint64_t *indices) {
  const size_t es = gp_dtype_size(type);
  topk_pair *p = (topk_pair *)malloc(n * sizeof *p);
  if (!p) return -1;
  const gp_key_class c = gp_key_class_of(type);
  const int largest = order == GP_DESCENDING;
  for (size_t i = 0; i < n; i++) {
    uint64_t bits = 0;
    memcpy(&bits, (const char *)in + i * es, es);
    p[i].key = gp_topk_key(bits, es == 8, c, largest);
    p[i].idx = i;
  }
  qsort(p, n, sizeof *p, cmp_pair);
  for (size_t j = 0; j < k; j++) {
    if (values) memcpy((char *)values + j * es, (const char *)in + p[j].idx * es, es);
    if (indices) indices[j] = p[j].idx;
  }
  free(p);
  return 0;
}

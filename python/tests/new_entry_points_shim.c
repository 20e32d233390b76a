/* Test-only stand-in for the entry points the radix work adds (gp_argsort,
 * gp_sort_segments_offsets, gp_sort_pairs_segments_offsets), written over the existing
 * API for host memory, so test_new_entry_points.py can run the binding's calls to them
 * before the library has them. Linked against libgpuprims, it exports the whole API. */
#include <stdlib.h>
#include <string.h>

#include "gpuprims.h"

gp_status gp_argsort(gp_context *ctx, gp_dtype key_type, const void *keys,
                     gp_dtype index_type, void *indices, size_t n, gp_order order) {
  size_t kb = gp_dtype_size(key_type);
  void *copy = malloc(n * kb + 1);
  if (!copy) return GP_ERR_OUT_OF_MEMORY;
  memcpy(copy, keys, n * kb);
  for (size_t i = 0; i < n; i++) {
    if (index_type == GP_U32) ((uint32_t *)indices)[i] = (uint32_t)i;
    else ((uint64_t *)indices)[i] = i;
  }
  gp_status s = gp_sort_pairs(ctx, key_type, copy, index_type, indices, n, order,
                              GP_SORT_AUTO);
  free(copy);
  return s;
}

gp_status gp_sort_pairs_segments_offsets(gp_context *ctx, gp_dtype key_type, void *keys,
                                         gp_dtype value_type, void *values,
                                         const uint64_t *offsets, size_t nseg,
                                         gp_order order) {
  size_t kb = gp_dtype_size(key_type), vb = values ? gp_dtype_size(value_type) : 0;
  for (size_t i = 0; i < nseg; i++) {
    size_t lo = offsets[i], len = offsets[i + 1] - offsets[i];
    gp_status s = values
        ? gp_sort_pairs(ctx, key_type, (char *)keys + lo * kb, value_type,
                        (char *)values + lo * vb, len, order, GP_SORT_AUTO)
        : gp_sort(ctx, key_type, (char *)keys + lo * kb, len, order, GP_SORT_AUTO);
    if (s) return s;
  }
  return GP_OK;
}

gp_status gp_sort_segments_offsets(gp_context *ctx, gp_dtype key_type, void *keys,
                                   const uint64_t *offsets, size_t nseg, gp_order order) {
  return gp_sort_pairs_segments_offsets(ctx, key_type, keys, GP_U32, NULL, offsets, nseg,
                                        order);
}

/* The radix sort's scratch sizes (no GPU needed): a buffer sized by
 * gp_cuda_radix_scratch_upto(n) holds the scratch of every sort of at most n keys, for
 * each key width and value width, around the tile and the small-shape boundary
 * (2^GP_RX_SMALL_SWEEP_LOG2 keys), where the scratch of n keys is less than that of
 * fewer (smaller tiles below the boundary: more look-back state). The segmented sort and
 * the distributed sort's partition path size their buffers this way. */
#include "check.h"

#if GP_HAVE_CUDA
#include "cuda/sort/radix_policy.h"
#include "cuda/sort/sort_cuda.h"

int main(void) {
  const gp_dtype kts[] = {GP_U32, GP_U64};
  const int vbs[] = {0, 4, 8};
  const size_t b = (size_t)1 << GP_RX_SMALL_SWEEP_LOG2;
  const size_t ns[] = {2, 5000, 40000, b - 1, b, b + 1, b + 5000, 2 * b, ((size_t)1 << 24) + 3};
  int found = 0; /* the non-monotone case exists (else the helper would be pointless) */
  for (int k = 0; k < 2; k++)
    for (int v = 0; v < 3; v++)
      for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        const size_t cap = gp_cuda_radix_scratch_upto(kts[k], vbs[v], ns[i]);
        CHECK(cap >= gp_cuda_radix_scratch(kts[k], vbs[v], ns[i]));
        for (size_t j = 0; j <= i; j++) {
          const size_t need = gp_cuda_radix_scratch(kts[k], vbs[v], ns[j]);
          CHECK_MSG(need <= cap, "%s values %d: scratch(%zu) = %zu > upto(%zu) = %zu",
                    gp_dtype_name(kts[k]), vbs[v], ns[j], need, ns[i], cap);
          found |= need > gp_cuda_radix_scratch(kts[k], vbs[v], ns[i]);
        }
      }
  CHECK(found);
  return check_summary("test_radix_scratch");
}
#else
int main(void) {
  printf("test_radix_scratch: SKIPPED, built without CUDA\n");
  return 77;
}
#endif

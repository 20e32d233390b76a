/* F32 exact sums in a window (reduce_segments.cuh's batches). Every input that entered
 * a thread's heads is a multiple of 2^m, m the smallest last-bit exponent among them (a
 * float of biased exponent E has its last bit at 2^(max(E, 1) - 150)), and so is each
 * head: an addition that rounds has a result of at least 2^(m + 53), a multiple of its
 * own last bit. While every head and partial sum stays below 2^(m + 53) they are
 * doubles, so every addition is exact: a batch that fits is added with plain FP64
 * additions, with no test an input (the segments' span kernel: 26.9 -> 14.8 warp
 * instructions per 32 elements, ncu on the H200, docs/perf/reduce.md, twenty-second
 * session). gp_reduce's exact kernel, already at 17.4 with tried steps, was measured with
 * it once (s22-final: 2^16-2^26 0.1-1.2 us faster, 2^28 and data spread over many
 * binades 4% slower) and kept its tried steps. */
#ifndef GP_CUDA_REDUCE_XS_WINDOW_CUH
#define GP_CUDA_REDUCE_XS_WINDOW_CUH

#define GP_XS_WIN_NONE (1 << 20) /* m before any nonzero input */

/* The last-bit exponent of the smallest nonzero |x| of a batch, given the smallest of
 * (|x|'s bits - 1), where zeros wrap above everything (GP_XS_WIN_NONE: all zero). */
__device__ __forceinline__ int gp_xs_win_lsb(unsigned a_min) {
  if (a_min == ~0u) return GP_XS_WIN_NONE;
  const int e = (int)((a_min + 1u) >> 23);
  return (e > 1 ? e : 1) - 150;
}

/* The biased exponent of |h| (0 for zeros). */
__device__ __forceinline__ int gp_xs_win_exp(double h) { return (__double2hiint(h) & 0x7fffffff) >> 20; }

/* N floats x[k] about to be added to W heads (x[k] to h[k % W]); m updated with them.
 * True when all N additions are exact: each head ends below 2^(eh - 1022) +
 * (N / W) 2^(E_max - 126) <= 2^(max(...) + 1), which must stay within 2^(m + 53); an
 * infinite or NaN input never fits (the tried steps keep its flags). */
__host__ __device__ constexpr int gp_xs_win_log2(unsigned v) { return v > 1 ? 1 + gp_xs_win_log2(v / 2) : 0; }

template <unsigned N, unsigned W>
__device__ __forceinline__ bool gp_xs_win_fits(const float *x, const double *h, int &m) {
  static_assert(N % W == 0 && (N / W & (N / W - 1)) == 0, "a power of two inputs a head");
  constexpr int LOG = gp_xs_win_log2(N / W);
  unsigned hi = 0, lo = ~0u;
#pragma unroll
  for (unsigned k = 0; k < N; k++) {
    const unsigned a = __float_as_uint(x[k]) & 0x7fffffffu;
    hi = max(hi, a);
    lo = min(lo, a - 1u);
  }
  int eh = 0;
#pragma unroll
  for (unsigned c = 0; c < W; c++) eh = max(eh, gp_xs_win_exp(h[c]));
  const int lx = gp_xs_win_lsb(lo);
  m = lx < m ? lx : m;
  const int top = max(eh - 1022, (int)(hi >> 23) - 126 + LOG) + 1;
  return top <= m + 53 && hi < 0x7f800000u;
}

#endif

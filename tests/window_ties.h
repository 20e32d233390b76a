/* Data for the F32 SUM windows of plain additions (src/cuda/reduce/xs_window.cuh): sums
 * that one inexact addition would move off a tie. Included by tests/segments_cases.h and
 * tests/test_reduce_exact_gpu.c; needs check.h's generator. */
#ifndef GP_TEST_WINDOW_TIES_H
#define GP_TEST_WINDOW_TIES_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Segments [b[s], e[s]) of 2^big each, but for ten pairs of +-(1 + 2^-23) 2^tiny (last
 * bit 2^(tiny - 23)) at random places and one element of half the float ulp of the
 * rest's sum: each exact F32 sum is a tie of two floats (rounded to even), and one
 * addition that rounds on the way moves it off the tie. With big 20, tiny -7, heads
 * pass 2^23 within a thread's chain (a window of plain additions a few bits too wide,
 * src/cuda/reduce/xs_window.cuh, loses a pair's last bit); with big 5, tiny -17, a
 * warp's whole sum straddles 2^13 (so does a warp's window too wide). */
static void window_ties(float *in, const uint64_t *b, const uint64_t *e, size_t nseg, int big,
                           int tiny) {
  const float B = (float)ldexp(1.0, big), t = (float)ldexp(1.0 + ldexp(1.0, -23), tiny);
  for (size_t s = 0; s < nseg; s++) {
    const size_t len = e[s] - b[s];
    for (size_t i = b[s]; i < e[s]; i++) in[i] = B;
    if (len < 64) continue;
    for (int k = 0; k < 20; k++) in[b[s] + check_rand64() % len] = k % 2 ? -t : t;
    size_t nb = 0; /* elements still 2^big once the tie's element is placed */
    size_t at = b[s] + check_rand64() % len;
    while (in[at] != B) at = at + 1 < e[s] ? at + 1 : b[s];
    for (size_t i = b[s]; i < e[s]; i++) nb += i != at && in[i] == B;
    int ex;
    (void)frexp((double)nb * B, &ex); /* the sum is in [2^(ex-1), 2^ex) */
    in[at] = (float)ldexp(1.0, ex - 1 - 23 - 1);
  }
}

#endif

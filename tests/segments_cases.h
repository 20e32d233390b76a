/* gp_reduce_rows / gp_reduce_segments_offsets cases shared by test_reduce_segments.c
 * (CPU) and test_reduce_segments_gpu.c: every op and dtype, rows of many shapes (long
 * ones the GPU splits into chunks, misaligned ones, one huge row) and
 * offsets with empty, tiny, power-law and huge segments, data with cancellation, NaN,
 * inf and -0-only segments; each result must have the bits gp_reduce (AUTO, on the CPU
 * context sc_cpu) gives for its segment alone. The including test defines sc_rows and
 * sc_offsets (the calls under test) and sets sc_cpu. */
#ifndef GP_TESTS_SEGMENTS_CASES_H
#define GP_TESTS_SEGMENTS_CASES_H

#include "check.h"
#include "window_ties.h"

#include <stdint.h>
#include <stdlib.h>

static gp_context *sc_cpu;
static gp_status sc_rows(gp_op op, gp_dtype t, const void *in, size_t nrows, size_t row_len,
                         void *out);
static gp_status sc_offsets(gp_op op, gp_dtype t, const void *in, const uint64_t *offs,
                            size_t nseg, void *out);

static const gp_dtype sc_types[] = {GP_F32, GP_F64, GP_I32, GP_I64, GP_U32, GP_U64};
static const gp_op sc_ops[] = {GP_SUM, GP_MIN, GP_MAX};

static void sc_fill(gp_dtype t, void *x, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = check_rand64();
    double v = ldexp((double)(int64_t)(r % 2000001) - 1000000.0, (int)((r >> 32) % 80) - 40);
    switch (t) {
    case GP_F32: ((float *)x)[i] = (float)v; break;
    case GP_F64: ((double *)x)[i] = (r >> 60) == 0 ? -v * 1e250 : v; break;
    case GP_I32: ((int32_t *)x)[i] = (int32_t)(uint32_t)r; break;
    case GP_I64: ((int64_t *)x)[i] = (int64_t)r; break;
    case GP_U32: ((uint32_t *)x)[i] = (uint32_t)(r >> 7); break;
    default: ((uint64_t *)x)[i] = r; break;
    }
  }
}

/* out[s] against gp_reduce of segment s alone (an empty one: 0 or the identity) */
static void sc_compare(gp_op op, gp_dtype t, const void *in, const uint64_t *b, const uint64_t *e,
                       size_t nseg, const void *out, const char *what) {
  const size_t es = gp_dtype_size(t), os = gp_dtype_size(gp_reduce_out_type(op, t));
  size_t bad = 0;
  for (size_t s = 0; s < nseg; s++) {
    unsigned char want[8] = {0};
    if (b[s] == e[s]) {
      if (op != GP_SUM) {
        int mx = op == GP_MAX;
        switch (t) {
        case GP_F32: { float v = mx ? -INFINITY : INFINITY; memcpy(want, &v, 4); break; }
        case GP_F64: { double v = mx ? -INFINITY : INFINITY; memcpy(want, &v, 8); break; }
        case GP_I32: { int32_t v = mx ? INT32_MIN : INT32_MAX; memcpy(want, &v, 4); break; }
        case GP_I64: { int64_t v = mx ? INT64_MIN : INT64_MAX; memcpy(want, &v, 8); break; }
        case GP_U32: { uint32_t v = mx ? 0 : UINT32_MAX; memcpy(want, &v, 4); break; }
        default: { uint64_t v = mx ? 0 : UINT64_MAX; memcpy(want, &v, 8); break; }
        }
      }
    } else if (gp_reduce(sc_cpu, op, t, (const char *)in + b[s] * es, e[s] - b[s], want,
                         GP_REDUCE_AUTO) != GP_OK) {
      CHECK_MSG(0, "reference gp_reduce: %s", gp_last_error(sc_cpu));
      return;
    }
    if (memcmp(want, (const char *)out + s * os, os) != 0 && bad++ < 3)
      CHECK_MSG(0, "%s %s %s: segment %zu [%llu, %llu) differs from gp_reduce of it alone", what,
                gp_op_name(op), gp_dtype_name(t), s, (unsigned long long)b[s],
                (unsigned long long)e[s]);
  }
  CHECK_MSG(bad == 0, "%s %s %s: %zu of %zu segments differ", what, gp_op_name(op),
            gp_dtype_name(t), bad, nseg);
}

static void sc_test_rows(void) {
  /* on the GPU: lane groups of every width (f32 1 .. 32 lanes at 3 .. 512), warps,
   * rows split into chunks (8192 and more), one huge row (gp_reduce) */
  const size_t shapes[][2] = {{1, 1}, {7, 1}, {100, 3}, {33, 31}, {1000, 33}, {64, 77},
                              {40, 130}, {20, 300}, {10, 512}, {17, 1000}, {300, 513},
                              {3, 70000}, {5, 40001}, {9, 8192}, {2, ((size_t)1 << 20) + 3},
                              {1, ((size_t)1 << 20) + 5}, {0, 5}};
  const size_t nshapes = sizeof shapes / sizeof shapes[0];
  const size_t maxn = ((size_t)1 << 21) + 8;
  unsigned char *in = (unsigned char *)malloc(maxn * 8);
  unsigned char *out = (unsigned char *)malloc(1000 * 8);
  uint64_t *b = (uint64_t *)malloc(1001 * 8), *e = (uint64_t *)malloc(1001 * 8);
  for (size_t ti = 0; ti < 6; ti++)
    for (size_t k = 0; k < 2 * nshapes; k++) {
      /* the second round: floats whose sums a double holds exactly (the fast paths) */
      const int benign = k >= nshapes;
      const size_t nr = shapes[k % nshapes][0], rl = shapes[k % nshapes][1];
      if (benign && sc_types[ti] != GP_F32 && sc_types[ti] != GP_F64) break;
      check_seed(500 + ti * 31 + k);
      sc_fill(sc_types[ti], in, nr * rl);
      if (benign)
        for (size_t i = 0; i < nr * rl; i++) {
          const double v = ldexp((double)(int)(check_rand64() % 2001) - 1000.0, -10);
          if (sc_types[ti] == GP_F32) ((float *)in)[i] = (float)v;
          else ((double *)in)[i] = v;
        }
      else if (sc_types[ti] == GP_F64 && nr * rl > 40) { /* a NaN row, an inf row, a -0 row */
        double *d = (double *)in;
        d[rl / 2] = NAN;
        if (nr > 1) d[rl + 1] = INFINITY;
        if (nr > 2) for (size_t i = 0; i < rl; i++) d[2 * rl + i] = -0.0;
      }
      for (size_t s = 0; s < nr; s++) { b[s] = s * rl; e[s] = (s + 1) * rl; }
      for (size_t oi = 0; oi < 3; oi++) {
        char what[96];
        snprintf(what, sizeof what, "rows %zu x %zu%s", nr, rl, benign ? " (exact in a double)" : "");
        memset(out, 0xAB, 1000 * 8);
        if (sc_rows(sc_ops[oi], sc_types[ti], in, nr, rl, out) == GP_OK)
          sc_compare(sc_ops[oi], sc_types[ti], in, b, e, nr, out, what);
      }
    }
  free(in);
  free(out);
  free(b);
  free(e);
}

static void sc_test_offsets(void) {
  const size_t nseg = 5000;
  uint64_t *offs = (uint64_t *)malloc((nseg + 1) * 8);
  /* power-law sizes with empties and one big segment */
  check_seed(99);
  offs[0] = 0;
  for (size_t s = 0; s < nseg; s++) {
    uint64_t r = check_rand64();
    size_t len = (r % 7 == 0) ? 0 : (size_t)(1u << (r >> 40) % 11) + (size_t)(r % 5);
    if (s == 4321) len = 300000;
    offs[s + 1] = offs[s] + len;
  }
  const size_t n = offs[nseg];
  unsigned char *in = (unsigned char *)malloc(n * 8);
  unsigned char *out = (unsigned char *)malloc(nseg * 8);
  for (size_t ti = 0; ti < 6; ti++) {
    check_seed(700 + ti);
    sc_fill(sc_types[ti], in, n);
    for (size_t oi = 0; oi < 3; oi++) {
      memset(out, 0xAB, nseg * 8);
      if (sc_offsets(sc_ops[oi], sc_types[ti], in, offs, nseg, out) == GP_OK)
        sc_compare(sc_ops[oi], sc_types[ti], in, offs, offs + 1, nseg, out, "offsets");
      /* tiny segments (0 .. 3 elements: a thread each on the GPU) over the same data */
      {
        uint64_t *small = (uint64_t *)malloc(3001 * 8);
        small[0] = 0;
        for (size_t q = 0; q < 3000; q++) small[q + 1] = small[q] + (check_rand64() % 4);
        memset(out, 0xAB, nseg * 8);
        if (sc_offsets(sc_ops[oi], sc_types[ti], in, small, 3000, out) == GP_OK)
          sc_compare(sc_ops[oi], sc_types[ti], in, small, small + 1, 3000, out, "tiny offsets");
        free(small);
      }
      /* a sub-range of segments: offsets need not start at 0 */
      memset(out, 0xAB, nseg * 8);
      if (sc_offsets(sc_ops[oi], sc_types[ti], in, offs + 100, 50, out) == GP_OK)
        sc_compare(sc_ops[oi], sc_types[ti], in, offs + 100, offs + 101, 50, out, "offsets 100..150");
    }
  }
  free(offs);
  free(in);
  free(out);
}

/* Long segments (the GPU splits segments of at least one span, GP_OFF_LONG_SPANS: 2048
 * four-byte or 1024 eight-byte elements at these sizes; 4096 and 2048 with two) of
 * lengths around those thresholds and the spans' edges, starting on and off a span's
 * first element, back to back and between tiny
 * and empty ones, offsets starting off 0; NaN and inf inside long segments; then a
 * single segment of everything. */
static void sc_test_offsets_long(void) {
  static const size_t lens[] = {0, 3, 4095, 4096, 4097, 0, 0, 2047, 2048, 2049, 6143, 1,
                                8192, 100000, 5, 4096, 4096, 0, 12289, 2, 300001, 7, 65536,
                                1023, 1024, 1025, 3071, 3072, 0};
  const size_t nl = sizeof lens / sizeof lens[0], nseg = nl + 400;
  uint64_t *offs = (uint64_t *)malloc((nseg + 1) * 8);
  check_seed(4242);
  offs[0] = 37;
  for (size_t s = 0; s < nseg; s++) { /* the listed lengths, each after some random ones */
    const uint64_t r = check_rand64();
    const size_t len = s % 15 == 14 ? lens[(s / 15) % nl] : r % 9 == 0 ? 5000 + r % 3000 : r % 40;
    offs[s + 1] = offs[s] + len;
  }
  const size_t n = offs[nseg];
  unsigned char *in = (unsigned char *)malloc(n * 8);
  unsigned char *out = (unsigned char *)malloc(nseg * 8);
  for (size_t ti = 0; ti < 6; ti++) {
    check_seed(900 + ti);
    sc_fill(sc_types[ti], in, n);
    for (int special = 0; special < 2; special++) {
      if (special && sc_types[ti] != GP_F32 && sc_types[ti] != GP_F64) break;
      if (special) { /* NaN in one long segment, +inf in the next, -inf in the third */
        const double v[3] = {NAN, INFINITY, -INFINITY};
        int k = 0;
        for (size_t q = 0; q < nseg && k < 3; q++) {
          if (offs[q + 1] - offs[q] < 8192) continue;
          const size_t at = offs[q] + (offs[q + 1] - offs[q]) * 2 / 3;
          if (sc_types[ti] == GP_F32) ((float *)in)[at] = (float)v[k];
          else ((double *)in)[at] = v[k];
          k++;
        }
        CHECK_MSG(k == 3, "long offsets: three segments of 8192 or more");
      }
      for (size_t oi = 0; oi < 3; oi++) {
        memset(out, 0xAB, nseg * 8);
        if (sc_offsets(sc_ops[oi], sc_types[ti], in, offs, nseg, out) == GP_OK)
          sc_compare(sc_ops[oi], sc_types[ti], in, offs, offs + 1, nseg, out,
                     special ? "long offsets, NaN and inf" : "long offsets");
        uint64_t one[2] = {1, n}; /* everything in one segment */
        memset(out, 0xAB, 8);
        if (sc_offsets(sc_ops[oi], sc_types[ti], in, one, 1, out) == GP_OK)
          sc_compare(sc_ops[oi], sc_types[ti], in, one, one + 1, 1, out, "one long segment");
      }
    }
  }
  free(offs);
  free(in);
  free(out);
}

/* F32 SUM where a lane's batches are added without a test while their window fits a
 * double (reduce_segments.cuh, gp_seg_lane): sums that grow through the 53-bit edge
 * (odd multiples of 2^-30 among powers of two up to 2^21: the window closes part way
 * through a lane's share), benign data with rare disruptors (a 2^-60 or 2^70 multiple,
 * NaN, +-inf, -0, a cancelling pair), and ties that one rounded addition would break
 * (window_ties), on rows (warps, chunks) and on offsets (warps, spans). Each result
 * against gp_reduce of its segment alone. */
static void sc_test_window(void) {
  const size_t n = 600000, rl = 75000, nr = n / rl;
  float *in = (float *)malloc(n * sizeof(float));
  float *out = (float *)malloc(1000 * sizeof(float));
  uint64_t *offs = (uint64_t *)malloc(1001 * 8);
  uint64_t b[8], e[8];
  for (size_t s = 0; s < nr; s++) { b[s] = s * rl; e[s] = (s + 1) * rl; }
  for (int kind = 0; kind < 8; kind++) {
    check_seed(1300 + kind);
    offs[0] = 3;
    for (size_t s = 0; s < 1000; s++) { /* short, warp-sized and span-split lengths */
      const uint64_t r = check_rand64();
      const size_t len = r % 5 == 0 ? 20000 + r % 9000 : r % 3 == 0 ? 600 + r % 2000 : r % 50;
      offs[s + 1] = offs[s] + len > n ? n : offs[s] + len;
    }
    for (size_t i = 0; i < n && kind < 6; i++) { /* kinds 6 and 7: window_ties */
      const uint64_t r = check_rand64();
      if (kind == 0) /* last bits at 2^-30, powers of two to 2^21: past 2^23 the window closes */
        in[i] = r % 4 == 0 ? (float)ldexp((double)((int64_t)((r >> 8) % (1u << 20)) | 1), -30)
                           : (float)ldexp(1.0, 5 + (int)((r >> 40) % 17));
      else
        in[i] = (float)ldexp((double)(int)(r % 2001) - 1000.0, -10);
      if (kind >= 1 && (r >> 44) % 4000 == 0) { /* about 150 disruptors */
        const float d[5] = {(float)ldexp(3.0, -60), (float)ldexp(-5.0, 70), 0.0f, -0.0f, 1.0f};
        const unsigned which = (unsigned)((r >> 20) % 5);
        in[i] = kind == 1 ? d[which]
              : kind == 2 ? (which < 2 ? d[which] : -0.0f)
              : kind == 3 ? (which == 0 ? NAN : which == 1 ? INFINITY : d[which])
              : kind == 4 ? (which == 0 ? -INFINITY : d[which])
                          : (float)ldexp(1.0, 100);
        if (kind == 5 && i + 1 < n) in[++i] = (float)ldexp(-1.0, 100); /* cancels */
      }
    }
    char what[64];
    if (kind >= 6) window_ties(in, b, e, nr, kind == 6 ? 20 : 5, kind == 6 ? -7 : -17);
    snprintf(what, sizeof what, "window data %d, rows", kind);
    memset(out, 0xAB, 1000 * sizeof(float));
    if (sc_rows(GP_SUM, GP_F32, in, nr, rl, out) == GP_OK) sc_compare(GP_SUM, GP_F32, in, b, e, nr, out, what);
    if (kind >= 6) window_ties(in, offs, offs + 1, 1000, kind == 6 ? 20 : 5, kind == 6 ? -7 : -17);
    snprintf(what, sizeof what, "window data %d, offsets", kind);
    memset(out, 0xAB, 1000 * sizeof(float));
    if (sc_offsets(GP_SUM, GP_F32, in, offs, 1000, out) == GP_OK)
      sc_compare(GP_SUM, GP_F32, in, offs, offs + 1, 1000, out, what);
  }
  free(in);
  free(out);
  free(offs);
}

#endif

/* Bank-conflict model: strided accesses against the gcd rule derived here (a warp's
 * words k*S fall in 32/gcd(S,32) banks, so each bank gets gcd(S,32) of them), the seed's
 * and cuda-samples' interleaved variants, sequential addressing, 8-byte elements and
 * the broadcast rule. Host only. */
#include "check.h"

static unsigned gcd(unsigned a, unsigned b) {
  while (b) {
    unsigned t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static gp_model_config cfg_of(gp_model_algo a, unsigned block) {
  gp_model_config c;
  memset(&c, 0, sizeof c);
  c.algo = a;
  c.block = block;
  return c;
}

static void strided(gp_context *ctx) {
  for (unsigned long S = 0; S <= 130; S++) {
    gp_model_config c = cfg_of(GP_MODEL_SEQUENTIAL, 256);
    gp_bank_access a;
    unsigned d0 = 0;
    CHECK_OK(ctx, gp_model_bank_stride(ctx, &c, S, &a, &d0));
    /* S = 0: every lane the same word, one broadcast */
    unsigned expect = S == 0 ? 1 : gcd((unsigned)S, 32);
    CHECK_MSG(d0 == expect && a.max_degree == expect, "stride %lu: degree %u (max %u), expected %u",
              S, d0, a.max_degree, expect);
    CHECK_EQ_U64(a.warps, 8);
    CHECK_EQ_U64(a.conflicts, 8ul * (expect - 1));
  }
  /* 16 banks, warp 16: gcd(S, 16) */
  for (unsigned long S = 1; S <= 40; S++) {
    gp_model_config c = cfg_of(GP_MODEL_SEQUENTIAL, 64);
    c.banks = 16;
    c.warp = 16;
    gp_bank_access a;
    unsigned d0 = 0;
    CHECK_OK(ctx, gp_model_bank_stride(ctx, &c, S, &a, &d0));
    CHECK_EQ_U64(d0, gcd((unsigned)S, 16));
  }
  /* 8-byte elements over 4-byte banks: a lane's element is words 2k, 2k+1.
   * stride 1: 64 words, 2 per bank = the 2 wavefronts any 8-byte warp access needs.
   * stride 2: words 4k, 4k+1 -> 16 banks, 4 words each: 2 more than needed.
   * stride 16: words 32k, 32k+1 -> banks 0 and 1, 32 words each. */
  gp_model_config c = cfg_of(GP_MODEL_SEQUENTIAL, 32);
  c.elem_bytes = 8;
  gp_bank_access a;
  unsigned d0;
  CHECK_OK(ctx, gp_model_bank_stride(ctx, &c, 1, &a, &d0));
  CHECK(d0 == 2 && a.ideal == 2 && a.conflicts == 0);
  CHECK_OK(ctx, gp_model_bank_stride(ctx, &c, 2, &a, &d0));
  CHECK(d0 == 4 && a.conflicts == 2);
  CHECK_OK(ctx, gp_model_bank_stride(ctx, &c, 16, &a, &d0));
  CHECK(d0 == 32 && a.conflicts == 30);
  /* 8-byte banks with 8-byte elements: back to the gcd rule */
  c.bank_bytes = 8;
  CHECK_OK(ctx, gp_model_bank_stride(ctx, &c, 4, &a, &d0));
  CHECK_EQ_U64(d0, 4);
  CHECK_STATUS(gp_model_bank_stride(ctx, &c, (1ul << 20) + 1, &a, &d0), GP_ERR_INVALID_ARGUMENT);
  c.bank_bytes = 6;
  CHECK_STATUS(gp_model_bank_stride(ctx, &c, 1, &a, &d0), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "bank_bytes");
  CHECK_STATUS(gp_model_bank_stride(ctx, &c, 1, NULL, &d0), GP_ERR_INVALID_ARGUMENT);
}

/* The tree variants at 256 threads. For each tree step the three accesses (load,
 * load, store) have the same degree. Derived by hand:
 *  - seed interleaved (tid % 2s == 0): active lanes are every 2s-th thread, they touch
 *    words tid and tid + s -- a warp's active words are distinct modulo 32: degree 1.
 *  - cuda-samples reduce1 (i = 2*s*tid, i < T): warp 0's lanes L = min(32, T/2s) touch
 *    words 2s*k: degree ceil(L / (32 / gcd(2s, 32))) -- 2, 4, 8, 8, 8, 4, 2, 1.
 *  - sequential (tid < s): contiguous words: degree 1. */
static void trees(gp_context *ctx) {
  for (unsigned T = 2; T <= 1024; T *= 2) {
    gp_model_algo algos[3] = {GP_MODEL_INTERLEAVED, GP_MODEL_INTERLEAVED_STRIDED, GP_MODEL_SEQUENTIAL};
    for (int ai = 0; ai < 3; ai++) {
      gp_model_config c = cfg_of(algos[ai], T);
      gp_bank_access acc[3 * GP_MODEL_MAX_STEPS];
      size_t n;
      gp_bank_total t;
      CHECK_OK(ctx, gp_model_banks(ctx, &c, acc, 3 * GP_MODEL_MAX_STEPS, &n, &t));
      unsigned tree_rows = 0;
      unsigned long conflicts = 0;
      for (size_t k = 0; k < n; k++) {
        if (acc[k].part != GP_PART_TREE) {
          CHECK_EQ_U64(acc[k].max_degree, 1); /* sdata[tid] stores, sdata[0] load */
          continue;
        }
        tree_rows++;
        unsigned s = (unsigned)acc[k].step_s, expect = 1;
        if (algos[ai] == GP_MODEL_INTERLEAVED_STRIDED) {
          unsigned L = T / (2 * s) < 32 ? T / (2 * s) : 32;
          unsigned P = 32 / gcd(2 * s, 32);
          expect = (L + P - 1) / P;
          /* warps w > 0 see the same pattern (their words are shifted by 64*s*w, a
           * multiple of 32), so each active warp has this degree */
          unsigned warps = (T / (2 * s) + 31) / 32;
          conflicts += (unsigned long)warps * (expect - 1);
          CHECK_EQ_U64(acc[k].warps, warps);
        }
        CHECK_MSG(acc[k].max_degree == expect, "%s T=%u s=%u %s: degree %u, expected %u",
                  gp_model_algo_name(algos[ai]), T, s, acc[k].access, acc[k].max_degree, expect);
      }
      CHECK_EQ_U64(tree_rows, 3 * (unsigned)(31 - __builtin_clz(T)));
      CHECK_EQ_U64(t.ld_conflicts + t.st_conflicts, conflicts);
    }
  }
  /* the 256-thread strided variant's worst access is 8-way */
  gp_model_config c = cfg_of(GP_MODEL_INTERLEAVED_STRIDED, 256);
  gp_bank_total t;
  size_t n;
  CHECK_OK(ctx, gp_model_banks(ctx, &c, NULL, 0, &n, &t));
  CHECK_EQ_U64(t.max_degree, 8);
  /* loads: 2 per step, stores 1: (4+2+1+1+1+1+1+1) warps * ... conflicts 35 per access kind */
  CHECK_EQ_U64(t.ld_conflicts, 2 * t.st_conflicts);
  /* too small an array */
  gp_bank_access small[2];
  CHECK_STATUS(gp_model_banks(ctx, &c, small, 2, &n, &t), GP_ERR_INVALID_ARGUMENT);
  CHECK_ERROR_MENTIONS(ctx, "accesses");
}

/* Seed 003's warp designs: the lane-0 stores go to warp_sums[warp] (one lane per warp:
 * degree 1), and Program 6.15's Shared_mem_sum reads (lane + diff) % 32, a rotation
 * of the warp's own 32 words: conflict-free. */
static void warps(gp_context *ctx) {
  gp_model_algo algos[2] = {GP_MODEL_WARP_ATOMIC, GP_MODEL_WARP_SHARED};
  for (int ai = 0; ai < 2; ai++)
    for (unsigned T = 32; T <= 1024; T *= 2) {
      gp_model_config c = cfg_of(algos[ai], T);
      gp_bank_total t;
      size_t n;
      CHECK_OK(ctx, gp_model_banks(ctx, &c, NULL, 0, &n, &t));
      CHECK_EQ_U64(t.max_degree, 1);
      CHECK_EQ_U64(t.ld_conflicts + t.st_conflicts, 0);
      if (algos[ai] == GP_MODEL_WARP_ATOMIC) {
        CHECK_EQ_U64(t.st_requests, T / 32); /* one store per warp */
        CHECK_EQ_U64(t.ld_requests, 1);      /* warp 0 reads the warp sums */
      } else {
        /* per warp: 1 store + 5 steps x (2 loads + 1 store); warp 0 again: 1 + 5 x 3 */
        CHECK_EQ_U64(t.st_requests, T / 32 * 7 + (T < 1024 ? 1 : 0) + 5);
      }
    }
  /* with 64-bit elements the sequential tree stays at the 2-wavefront minimum */
  gp_model_config c = cfg_of(GP_MODEL_SEQUENTIAL, 256);
  c.elem_bytes = 8;
  gp_bank_total t;
  size_t n;
  CHECK_OK(ctx, gp_model_banks(ctx, &c, NULL, 0, &n, &t));
  CHECK_EQ_U64(t.ld_conflicts + t.st_conflicts, 0);
  CHECK_EQ_U64(t.max_degree, 2);
}

int main(void) {
  gp_context *ctx = check_cpu_context();
  strided(ctx);
  trees(ctx);
  warps(ctx);
  gp_destroy(ctx);
  return check_summary("test_model_banks");
}

/* A small in-repo test harness: checks that print the failing values, a GPU guard
 * that exits 77 (CTest: skipped) where no GPU is usable, and a closing summary line.
 * Header-only so tests need nothing beyond the CUDA toolkit and CMake. */
#ifndef GP_TESTS_CHECK_H
#define GP_TESTS_CHECK_H

#include "gpuprims.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed_, check_failed_;

#define CHECK_REPORT_(ok, ...)                                                  \
  do {                                                                          \
    if (ok) {                                                                   \
      check_passed_++;                                                          \
    } else {                                                                    \
      check_failed_++;                                                          \
      if (check_failed_ <= 50) {                                                \
        fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__);                 \
        fprintf(stderr, __VA_ARGS__);                                           \
        fputc('\n', stderr);                                                    \
      }                                                                         \
    }                                                                           \
  } while (0)

#define CHECK(cond) CHECK_REPORT_((cond), "%s", #cond)
#define CHECK_MSG(cond, ...) CHECK_REPORT_((cond), __VA_ARGS__)
#define CHECK_EQ_I64(a, b)                                                      \
  do {                                                                          \
    int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                               \
    CHECK_REPORT_(a_ == b_, "%s == %s: %" PRId64 " != %" PRId64, #a, #b, a_, b_); \
  } while (0)
#define CHECK_EQ_U64(a, b)                                                      \
  do {                                                                          \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                            \
    CHECK_REPORT_(a_ == b_, "%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, a_, b_); \
  } while (0)
#define CHECK_STATUS(call, expect)                                              \
  do {                                                                          \
    gp_status s_ = (call);                                                      \
    CHECK_REPORT_(s_ == (expect), "%s returned %s, expected %s", #call,         \
                  gp_status_string(s_), gp_status_string(expect));              \
  } while (0)
#define CHECK_OK(ctx, call)                                                     \
  do {                                                                          \
    gp_status s_ = (call);                                                      \
    CHECK_REPORT_(s_ == GP_OK, "%s returned %s: %s", #call,                     \
                  gp_status_string(s_), gp_last_error(ctx));                    \
  } while (0)
/* |a - b| <= abs_tol + rel_tol * |b|; NaN never passes unless both are NaN. */
#define CHECK_NEAR(a, b, abs_tol, rel_tol)                                      \
  do {                                                                          \
    double a_ = (double)(a), b_ = (double)(b);                                  \
    int ok_ = (isnan(a_) && isnan(b_)) ||                                       \
              (a_ == b_) || fabs(a_ - b_) <= (abs_tol) + (rel_tol) * fabs(b_);  \
    CHECK_REPORT_(ok_, "%s ~= %s: %.17g vs %.17g (diff %.3g)", #a, #b, a_, b_,  \
                  fabs(a_ - b_));                                               \
  } while (0)
/* The error message of a failed call names the problem: it contains `needle`. */
#define CHECK_ERROR_MENTIONS(ctx, needle)                                       \
  CHECK_REPORT_(strstr(gp_last_error(ctx), (needle)) != NULL,                   \
                "gp_last_error = \"%s\" does not mention \"%s\"",               \
                gp_last_error(ctx), (needle))

/* Prints "N passed, N failed" and returns the exit status for main. */
static inline int check_summary(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passed_, check_failed_);
  return check_failed_ ? 1 : 0;
}

/* For GPU tests: a CUDA context, or exit 77 (skipped) where no GPU is usable. */
static inline gp_context *check_gpu_context_or_skip(const char *name) {
  gp_context *ctx = NULL;
  gp_status s = gp_create(&ctx, GP_BACKEND_CUDA);
  if (s != GP_OK) {
    printf("%s: SKIPPED, no usable GPU: %s\n", name, gp_last_error(ctx));
    gp_destroy(ctx);
    exit(77);
  }
  return ctx;
}

static inline gp_context *check_cpu_context(void) {
  gp_context *ctx = NULL;
  if (gp_create(&ctx, GP_BACKEND_CPU) != GP_OK) {
    fprintf(stderr, "cannot create a CPU context: %s\n", gp_last_error(ctx));
    exit(1);
  }
  return ctx;
}

/* Deterministic xorshift64* stream for test data. */
static uint64_t check_rng_state_ = 0x9E3779B97F4A7C15ull;
static inline void check_seed(uint64_t s) { check_rng_state_ = s ? s : 0x9E3779B97F4A7C15ull; }
static inline uint64_t check_rand64(void) {
  uint64_t x = check_rng_state_;
  x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
  check_rng_state_ = x;
  return x * 0x2545F4914F6CDD1Dull;
}
/* Uniform double in [0, 1). */
static inline double check_rand01(void) { return (double)(check_rand64() >> 11) * 0x1.0p-53; }

#endif

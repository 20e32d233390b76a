/* Every kind of caller memory gives the same bits: reductions and sorts from pageable
 * (malloc), pinned (gp_host_alloc), registered (cudaHostRegister), managed and device
 * memory, with host results in pageable, pinned and device memory; sizes below, at
 * and above the staging pipeline's chunking (core/host_io.h), not multiples of a
 * chunk; both host-wait modes; a caller's buffer freed right after a call. Exits 77
 * where no GPU is usable. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"

#if !GP_HAVE_CUDA
int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_host_memory_gpu");
  gp_destroy(ctx);
  return 0;
}
#else
#include "core/host_io.h"

#include <cuda_runtime_api.h>

enum { K_PAGEABLE, K_PINNED, K_REGISTERED, K_MANAGED, K_DEVICE, K_COUNT };
static const char *kind_name[K_COUNT] = {"pageable", "pinned", "registered", "managed", "device"};

typedef struct buf {
  void *p;
  int kind;
} buf;

static buf buf_new(gp_context *ctx, int kind, size_t bytes) {
  buf b = {NULL, kind};
  switch (kind) {
  case K_PAGEABLE: b.p = malloc(bytes); break;
  case K_PINNED: if (gp_host_alloc(ctx, &b.p, bytes) != GP_OK) b.p = NULL; break;
  case K_REGISTERED:
    b.p = malloc(bytes);
    if (b.p && cudaHostRegister(b.p, bytes, cudaHostRegisterDefault) != cudaSuccess) {
      free(b.p);
      b.p = NULL;
    }
    break;
  case K_MANAGED: if (cudaMallocManaged(&b.p, bytes, cudaMemAttachGlobal) != cudaSuccess) b.p = NULL; break;
  default: if (cudaMalloc(&b.p, bytes) != cudaSuccess) b.p = NULL; break;
  }
  return b;
}

static void buf_free(gp_context *ctx, buf b) {
  switch (b.kind) {
  case K_PAGEABLE: free(b.p); break;
  case K_PINNED: gp_host_free(ctx, b.p); break;
  case K_REGISTERED: cudaHostUnregister(b.p); free(b.p); break;
  default: cudaFree(b.p); break;
  }
}

static void put(buf b, const void *src, size_t bytes) {
  if (b.kind == K_DEVICE) cudaMemcpy(b.p, src, bytes, cudaMemcpyHostToDevice);
  else memcpy(b.p, src, bytes);
}
static void get(void *dst, buf b, size_t bytes) {
  if (b.kind == K_DEVICE) cudaMemcpy(dst, b.p, bytes, cudaMemcpyDeviceToHost);
  else memcpy(dst, b.p, bytes);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next_u32(void) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

/* F32 and F64 SUM and F32 MAX of n values from every input kind into every output
 * kind: the bits of the device -> device call. */
static void reduce_kinds(gp_context *ctx, size_t n) {
  const gp_dtype types[2] = {GP_F32, GP_F64};
  for (int ti = 0; ti < 2; ti++) {
    gp_dtype t = types[ti];
    size_t es = gp_dtype_size(t), bytes = n * es;
    char *data = (char *)malloc(bytes);
    for (size_t i = 0; i < n; i++) {
      double v = ((double)next_u32() - 2147483648.0) / 65536.0;
      if (t == GP_F32) ((float *)data)[i] = (float)v;
      else ((double *)data)[i] = v;
    }
    for (int op = GP_SUM; op <= GP_MAX; op += GP_MAX - GP_SUM) {
      char ref[8] = {0};
      buf din = buf_new(ctx, K_DEVICE, bytes), dout = buf_new(ctx, K_DEVICE, 8);
      put(din, data, bytes);
      CHECK_OK(ctx, gp_reduce(ctx, (gp_op)op, t, din.p, n, dout.p, GP_REDUCE_AUTO));
      CHECK_OK(ctx, gp_synchronize(ctx));
      get(ref, dout, 8);
      buf_free(ctx, dout);
      for (int ki = 0; ki < K_COUNT; ki++) {
        buf in = ki == K_DEVICE ? din : buf_new(ctx, ki, bytes);
        if (!in.p) { CHECK_MSG(0, "allocating %s input", kind_name[ki]); continue; }
        if (ki != K_DEVICE) put(in, data, bytes);
        for (int ko = 0; ko < K_COUNT; ko++) {
          buf out = buf_new(ctx, ko, 8);
          char got[8] = {0};
          CHECK_OK(ctx, gp_reduce(ctx, (gp_op)op, t, in.p, n, out.p, GP_REDUCE_AUTO));
          CHECK_OK(ctx, gp_synchronize(ctx));
          get(got, out, 8);
          CHECK_MSG(memcmp(got, ref, es) == 0, "%s %s n=%zu from %s to %s: bits differ from device",
                    gp_dtype_name(t), gp_op_name((gp_op)op), n, kind_name[ki], kind_name[ko]);
          buf_free(ctx, out);
        }
        if (ki != K_DEVICE) buf_free(ctx, in);
      }
      buf_free(ctx, din);
    }
    free(data);
  }
}

/* Sorting u32 keys (and pairs with u32 values) in every memory kind: the device result. */
static void sort_kinds(gp_context *ctx, size_t n) {
  size_t bytes = n * 4;
  uint32_t *keys = (uint32_t *)malloc(bytes), *vals = (uint32_t *)malloc(bytes);
  uint32_t *rk = (uint32_t *)malloc(bytes), *rv = (uint32_t *)malloc(bytes);
  uint32_t *gk = (uint32_t *)malloc(bytes), *gv = (uint32_t *)malloc(bytes);
  for (size_t i = 0; i < n; i++) {
    keys[i] = next_u32() % 1000; /* duplicates: values show any instability */
    vals[i] = (uint32_t)i;
  }
  buf dk = buf_new(ctx, K_DEVICE, bytes), dv = buf_new(ctx, K_DEVICE, bytes);
  put(dk, keys, bytes);
  put(dv, vals, bytes);
  CHECK_OK(ctx, gp_sort_pairs(ctx, GP_U32, dk.p, GP_U32, dv.p, n, GP_ASCENDING, GP_SORT_AUTO));
  CHECK_OK(ctx, gp_synchronize(ctx));
  get(rk, dk, bytes);
  get(rv, dv, bytes);
  buf_free(ctx, dk);
  buf_free(ctx, dv);
  for (int ki = 0; ki < K_DEVICE; ki++) {
    buf k = buf_new(ctx, ki, bytes), v = buf_new(ctx, ki, bytes);
    if (!k.p || !v.p) { CHECK_MSG(0, "allocating %s arrays", kind_name[ki]); continue; }
    put(k, keys, bytes);
    put(v, vals, bytes);
    CHECK_OK(ctx, gp_sort_pairs(ctx, GP_U32, k.p, GP_U32, v.p, n, GP_ASCENDING, GP_SORT_AUTO));
    get(gk, k, bytes);
    get(gv, v, bytes);
    CHECK_MSG(memcmp(gk, rk, bytes) == 0 && memcmp(gv, rv, bytes) == 0,
              "sort_pairs u32/u32 n=%zu in %s memory differs from device memory", n, kind_name[ki]);
    buf_free(ctx, k);
    buf_free(ctx, v);
  }
  /* gp_sort_copy from every kind into every kind: host and managed results are there
     when the call returns (device results after a gp_synchronize), the input untouched */
  for (int ki = 0; ki < K_COUNT; ki++)
    for (int ko = 0; ko < K_COUNT; ko++) {
      buf in = buf_new(ctx, ki, bytes), out = buf_new(ctx, ko, bytes);
      if (!in.p || !out.p) {
        CHECK_MSG(0, "allocating %s / %s arrays", kind_name[ki], kind_name[ko]);
      } else {
        put(in, keys, bytes);
        CHECK_OK(ctx, gp_sort_copy(ctx, GP_U32, in.p, out.p, n, GP_ASCENDING, GP_SORT_AUTO));
        if (ko == K_DEVICE) CHECK_OK(ctx, gp_synchronize(ctx));
        get(gk, out, bytes);
        CHECK_MSG(memcmp(gk, rk, bytes) == 0, "sort_copy u32 n=%zu from %s into %s memory differs",
                  n, kind_name[ki], kind_name[ko]);
        get(gv, in, bytes);
        CHECK_MSG(memcmp(gv, keys, bytes) == 0, "sort_copy u32 n=%zu: the %s input changed", n,
                  kind_name[ki]);
      }
      if (in.p) buf_free(ctx, in);
      if (out.p) buf_free(ctx, out);
    }
  free(keys); free(vals); free(rk); free(rv); free(gk); free(gv);
}

/* The call has finished with a pageable input when it returns: freeing and reusing it
 * at once cannot change a later result. */
static void reuse_after_return(gp_context *ctx) {
  const size_t n = 3 * (GP_STAGE_CHUNK / 4) + 5;
  float *a = (float *)malloc(n * 4), ref = 0, got = 0;
  for (size_t i = 0; i < n; i++) a[i] = (float)(i % 7);
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, a, n, &ref, GP_REDUCE_AUTO));
  memset(a, 0xff, n * 4); /* NaNs: would poison a late read */
  free(a);
  float *b = (float *)malloc(n * 4);
  for (size_t i = 0; i < n; i++) b[i] = (float)(i % 7);
  CHECK_OK(ctx, gp_reduce(ctx, GP_SUM, GP_F32, b, n, &got, GP_REDUCE_AUTO));
  CHECK(memcmp(&got, &ref, 4) == 0);
  uint64_t exact = 0; /* F32 SUM is the exact sum rounded once: an integer here */
  for (size_t i = 0; i < n; i++) exact += i % 7;
  CHECK(ref == (float)exact);
  free(b);
}

int main(void) {
  gp_context *ctx = check_gpu_context_or_skip("test_host_memory_gpu");
  const size_t sizes[] = {1, 1000, (GP_STAGE_DIRECT_MAX / 4) + 3,
                          GP_STAGE_SLOTS * (GP_STAGE_CHUNK / 4) + 12345};
  for (int mode = 0; mode < 2; mode++) {
    setenv("GPUPRIMS_HOST_WAIT", mode ? "spin" : "sync", 1);
    gp_context *c = NULL;
    if (gp_create(&c, GP_BACKEND_CUDA) != GP_OK) { CHECK(0); break; }
    for (int i = 0; i < 4; i++) reduce_kinds(c, sizes[i]);
    for (int i = 1; i < 4; i++) sort_kinds(c, sizes[i]);
    reuse_after_return(c);
    gp_destroy(c);
  }
  void *p = NULL;
  CHECK_STATUS(gp_host_alloc(ctx, NULL, 8), GP_ERR_INVALID_ARGUMENT);
  CHECK_OK(ctx, gp_host_alloc(ctx, &p, 100));
  CHECK(p != NULL);
  CHECK_OK(ctx, gp_host_free(ctx, p));
  CHECK_OK(ctx, gp_host_free(ctx, NULL));
  gp_destroy(ctx);
  return check_summary("test_host_memory_gpu");
}
#endif

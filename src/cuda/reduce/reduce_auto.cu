/* GP_REDUCE_AUTO on CUDA: the fastest deterministic reduction. One launch: a
 * persistent-ish grid runs the virtual blocks of src/core/reduce_tree.h (fixed-size
 * tiles, each thread with 16-byte loads x GP_AUTO_UNROLL in flight, a fixed per-lane
 * order), each virtual block stores its partial, and the last block to finish (a
 * ticket counter) combines the partials in a fixed order. The tree depends on n
 * alone, so the bits are the same for every grid size and on the CPU backend. */
#include "cuda/common/reduce_ops.cuh"
#include "cuda/reduce/cuda_reduce.h"

#include <stdint.h>

/* Tuning (they change which block does what, never the bits): */
#ifndef GP_AUTO_MIN_BLOCKS
#define GP_AUTO_MIN_BLOCKS 3   /* __launch_bounds__: at least 3 blocks of 256 per SM */
#endif
#ifndef GP_AUTO_PIPELINE
#define GP_AUTO_PIPELINE 1     /* issue the next tile's loads before this tile's adds */
#endif
#ifndef GP_AUTO_SINGLE_BLOCK_V
#define GP_AUTO_SINGLE_BLOCK_V 1 /* up to this many virtual blocks one block does all
                                    (measured: 4 tiles on one block cost more than the
                                    last-block ticket) */
#endif

/* Ticket counters for "the last block combines". They live in a static pool, not in
 * the context workspace, because other primitives reuse the workspace and would leave
 * garbage in a counter; each slot is zero at load and the last block resets its slot
 * to zero, so no memset is needed per call. Calls take slots round-robin: two calls
 * could collide only if one of them is still running after GP_TICKET_SLOTS later
 * calls were issued on another stream. */
#define GP_TICKET_SLOTS 4096u
__device__ unsigned gp_reduce_auto_tickets[GP_TICKET_SLOTS];

/* How the kernel loads: scalar (misaligned `in`), 16-byte read-only loads, or 16-byte
 * loads that skip L1 allocation. Measured on an H200 (F32, L2 flushed): no_allocate
 * is ~10% faster at 16-64 MB but ~5% slower from 256 MB up, so run_auto picks by size. */
#define GP_LOAD_SCALAR 0
#define GP_LOAD_VEC 1
#define GP_LOAD_NOALLOC 2
#ifndef GP_AUTO_NOALLOC_MAX_BYTES
#define GP_AUTO_NOALLOC_MAX_BYTES ((size_t)96 << 20)
#endif
template <int MODE> __device__ __forceinline__ uint4 gp_ld16(const uint4 *p) {
  if (MODE == GP_LOAD_NOALLOC) {
    uint4 r;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
    return r;
  }
  return __ldg(p);
}
/* atomicAdd(ticket, 1) with release + acquire semantics at GPU scope: one round trip
 * instead of __threadfence() followed by the atomic */
__device__ __forceinline__ unsigned gp_ticket_acq_rel(unsigned *t) {
  unsigned old;
  asm volatile("atom.add.acq_rel.gpu.u32 %0, [%1], 1;" : "=r"(old) : "l"(t) : "memory");
  return old;
}

template <typename T> struct gp_vec16 {
  union {
    uint4 u;
    T t[GP_AUTO_VEC_BYTES / sizeof(T)];
  };
};

/* The ladder's last step. Per tile each thread has GP_AUTO_UNROLL independent 16-byte
 * loads in flight (64 bytes; ~64-96 KB per SM), index math is 32-bit inside a tile,
 * and the grid is a few blocks per SM looping over virtual blocks, so the cost is
 * HBM bandwidth plus one launch and one ~1 us combine by the last block.
 * Costs that remain: F32 SUM converts and adds in F64 (cheap on an H200, hidden under
 * memory time); a misaligned `in` falls back to scalar loads of the same mapping;
 * tiny n pays a whole launch for one block. */
template <typename T, typename A, typename Op, typename Out, int MODE>
__global__ __launch_bounds__(GP_AUTO_THREADS, GP_AUTO_MIN_BLOCKS) void gp_reduce_auto_kernel(
    const T *__restrict__ in, size_t n, unsigned nv, A *__restrict__ partials,
    unsigned slot, Out *out) {
  constexpr unsigned W = GP_AUTO_VEC_BYTES / sizeof(T);
  constexpr unsigned TE = GP_AUTO_THREADS * GP_AUTO_UNROLL * W;
  __shared__ A warp_sums[GP_WARP_SIZE];
  __shared__ unsigned am_last;
  const Op op;
  const A id = gp_rident<Op, A>::v();
  const unsigned tid = threadIdx.x;
  const size_t full = n / TE;
  constexpr bool VEC = MODE != GP_LOAD_SCALAR;

  for (unsigned v = blockIdx.x; v < nv; v += gridDim.x) {
    A acc[W];
#pragma unroll
    for (unsigned c = 0; c < W; c++) acc[c] = id;
    if (VEC && GP_AUTO_PIPELINE) {
      /* software pipeline: the next tile's loads are issued before this tile's adds,
       * so 2 x GP_AUTO_UNROLL 16-byte loads are in flight; the order of adds is the
       * tree's (tile by tile) */
      size_t tile = v;
      if (tile < full) {
        gp_vec16<T> x[GP_AUTO_UNROLL], y[GP_AUTO_UNROLL];
        const uint4 *p = reinterpret_cast<const uint4 *>(in + tile * TE) + tid;
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) x[u].u = gp_ld16<MODE>(p + u * GP_AUTO_THREADS);
        for (;;) {
          const size_t next = tile + nv;
          const bool more = next < full;
          if (more) {
            const uint4 *q = reinterpret_cast<const uint4 *>(in + next * TE) + tid;
#pragma unroll
            for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) y[u].u = gp_ld16<MODE>(q + u * GP_AUTO_THREADS);
          }
#pragma unroll
          for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
            for (unsigned c = 0; c < W; c++) acc[c] = op(acc[c], static_cast<A>(x[u].t[c]));
          if (!more) break;
#pragma unroll
          for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) x[u] = y[u];
          tile = next;
        }
      }
    } else if (VEC) { /* one tile at a time: GP_AUTO_UNROLL loads in flight */
      for (size_t tile = v; tile < full; tile += nv) {
        gp_vec16<T> x[GP_AUTO_UNROLL];
        const uint4 *p = reinterpret_cast<const uint4 *>(in + tile * TE) + tid;
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) x[u].u = gp_ld16<MODE>(p + u * GP_AUTO_THREADS);
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
          for (unsigned c = 0; c < W; c++) acc[c] = op(acc[c], static_cast<A>(x[u].t[c]));
      }
    } else { /* misaligned: scalar loads, same logical mapping, same order */
      for (size_t tile = v; tile < full; tile += nv) {
        const T *p = in + tile * TE;
        T x[GP_AUTO_UNROLL][W];
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
          for (unsigned c = 0; c < W; c++) x[u][c] = __ldg(p + (u * GP_AUTO_THREADS + tid) * W + c);
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
          for (unsigned c = 0; c < W; c++) acc[c] = op(acc[c], static_cast<A>(x[u][c]));
      }
    }
    if (full * TE < n && full % nv == v) { /* the partial tile: last, guarded */
      const T *p = in + full * TE;
      const unsigned rem = (unsigned)(n - full * TE);
#pragma unroll
      for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
        for (unsigned c = 0; c < W; c++) {
          unsigned k = (u * GP_AUTO_THREADS + tid) * W + c;
          if (k < rem) acc[c] = op(acc[c], static_cast<A>(__ldg(p + k)));
        }
    }
#pragma unroll
    for (unsigned h = W / 2; h > 0; h /= 2)
#pragma unroll
      for (unsigned j = 0; j < h; j++) acc[j] = op(acc[j], acc[j + h]);
    const A r = gp_block_reduce(acc[0], op, id, warp_sums);
    if (nv == 1) { /* one virtual block (grid of 1): it is the result */
      if (tid == 0) *out = gp_rfinal<Out>(r);
      return;
    }
    if (tid == 0) partials[v] = r;
  }

  /* the last block to finish combines the partials in the fixed order */
  unsigned *ticket = gp_reduce_auto_tickets + slot;
  if (gridDim.x > 1) {
    if (tid == 0) /* release: this block's partials are visible before its ticket */
      am_last = gp_ticket_acq_rel(ticket) == gridDim.x - 1;
    __syncthreads();
    if (!am_last) return;
    asm volatile("fence.acq_rel.gpu;" ::: "memory"); /* acquire the other blocks' partials */
  } else {
    __syncthreads(); /* one block: its own global writes are visible after the barrier */
  }
  A a = id;
  for (unsigned i = tid; i < nv; i += GP_AUTO_FINAL_THREADS) a = op(a, __ldcg(partials + i));
  a = gp_block_reduce(a, op, id, warp_sums);
  if (tid == 0) {
    *out = gp_rfinal<Out>(a);
    if (gridDim.x > 1) *ticket = 0; /* ready for the next call that takes this slot */
  }
}

static unsigned g_force_grid;
static unsigned g_ticket_next;

extern "C" void gp_cuda_reduce_auto_force_grid(unsigned grid) { g_force_grid = grid; }

/* Blocks that fit on the device at once (cached per kernel instantiation). */
template <typename T, typename A, typename Op, int MODE>
static unsigned resident_blocks(gp_context *ctx) {
  typedef typename gp_rout<T, A>::type Out;
  static int per_sm = 0;
  if (per_sm == 0) {
    int b = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &b, gp_reduce_auto_kernel<T, A, Op, Out, MODE>, GP_AUTO_THREADS, 0) != cudaSuccess ||
        b < 1) {
      (void)cudaGetLastError();
      b = 1;
    }
    per_sm = b;
  }
  int sms = ctx->info.sm_count > 0 ? ctx->info.sm_count : 1;
  return (unsigned)per_sm * (unsigned)sms;
}

/* Physical grid for nv virtual blocks: as many as fit at once, evened out so every
 * block runs the same number of virtual blocks (no half-empty last wave). */
template <typename T, typename A, typename Op, int MODE>
static unsigned auto_grid(gp_context *ctx, unsigned nv) {
  if (g_force_grid) return g_force_grid < nv ? g_force_grid : nv;
  if (nv <= GP_AUTO_SINGLE_BLOCK_V) return 1;
  unsigned res = resident_blocks<T, A, Op, MODE>(ctx);
  unsigned waves = (nv + res - 1) / res;
  return (nv + waves - 1) / waves;
}

template <typename T, typename A, typename Op>
static unsigned grid_for(gp_context *ctx, size_t n) {
  return auto_grid<T, A, Op, GP_LOAD_VEC>(ctx, gp_rt_auto_vblocks(n, sizeof(T)));
}

template <typename T, typename A, typename Op>
static gp_status run_auto(gp_context *ctx, const void *vin, size_t n, void *scratch, void *vout) {
  typedef typename gp_rout<T, A>::type Out;
  cudaStream_t st = (cudaStream_t)ctx->stream;
  const T *in = static_cast<const T *>(vin);
  const unsigned nv = gp_rt_auto_vblocks(n, sizeof(T));
  const unsigned slot = __atomic_fetch_add(&g_ticket_next, 1u, __ATOMIC_RELAXED) % GP_TICKET_SLOTS;
  A *partials = static_cast<A *>(scratch);
  Out *out = static_cast<Out *>(vout);
  if ((uintptr_t)vin % GP_AUTO_VEC_BYTES != 0) {
    unsigned g = auto_grid<T, A, Op, GP_LOAD_SCALAR>(ctx, nv);
    gp_reduce_auto_kernel<T, A, Op, Out, GP_LOAD_SCALAR>
        <<<g, GP_AUTO_THREADS, 0, st>>>(in, n, nv, partials, slot, out);
  } else if (n * sizeof(T) <= GP_AUTO_NOALLOC_MAX_BYTES) {
    unsigned g = auto_grid<T, A, Op, GP_LOAD_NOALLOC>(ctx, nv);
    gp_reduce_auto_kernel<T, A, Op, Out, GP_LOAD_NOALLOC>
        <<<g, GP_AUTO_THREADS, 0, st>>>(in, n, nv, partials, slot, out);
  } else {
    unsigned g = auto_grid<T, A, Op, GP_LOAD_VEC>(ctx, nv);
    gp_reduce_auto_kernel<T, A, Op, Out, GP_LOAD_VEC>
        <<<g, GP_AUTO_THREADS, 0, st>>>(in, n, nv, partials, slot, out);
  }
  GP_LAUNCH_CHECK(ctx, "gp_reduce_auto_kernel");
  return GP_OK;
}

extern "C" unsigned gp_cuda_reduce_auto_grid(gp_context *ctx, gp_op op, gp_dtype type, size_t n) {
  GP_REDUCE_DISPATCH(grid_for, double, op, type, ctx, n)
  return 0;
}

extern "C" gp_status gp_cuda_reduce_auto(gp_context *ctx, gp_op op, gp_dtype type,
                                         const void *d_in, size_t n, void *scratch, void *d_out) {
  GP_REDUCE_DISPATCH(run_auto, double, op, type, ctx, d_in, n, scratch, d_out)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}

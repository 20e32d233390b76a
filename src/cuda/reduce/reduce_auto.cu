/* GP_REDUCE_AUTO on CUDA: the fastest deterministic reduction. One launch: a
 * persistent-ish grid runs the virtual blocks of src/core/reduce_tree.h (fixed-size
 * tiles, each thread with 16-byte loads x GP_AUTO_UNROLL in flight, a fixed per-lane
 * order), each virtual block stores its partial, and the last block to finish (a
 * ticket counter) combines the partials in a fixed order. The tree depends on n
 * alone, so the bits are the same for every grid size and on the CPU backend. Float
 * MIN/MAX, whose bits do not depend on the order at all, run on integer keys instead
 * of the exact NaN / -0 operator (gp_auto_f32min etc. below). */
#include "cuda/common/load16.cuh"
#include "cuda/common/reduce_ops.cuh"
#include "cuda/common/resident.cuh"
#include "cuda/common/ticket.cuh"
#include "cuda/reduce/reduce_cuda.h"
#include "core/exact_sum.h"

#include <stdint.h>

/* Tuning (they change which block does what, never the bits): */
#ifndef GP_AUTO_MIN_BLOCKS
#define GP_AUTO_MIN_BLOCKS 4   /* __launch_bounds__: at least 4 blocks of 256 per SM (<= 64
                                  registers; the keyed F64 MIN/MAX would take 72 = 3 blocks) */
#endif
#ifndef GP_AUTO_PIPELINE
#define GP_AUTO_PIPELINE 1     /* issue the next tile's loads before this tile's adds */
#endif
#ifndef GP_AUTO_SINGLE_BLOCK_V
#define GP_AUTO_SINGLE_BLOCK_V 1 /* up to this many virtual blocks one block does all
                                    (measured: 4 tiles on one block cost more than the
                                    last-block ticket) */
#endif

/* Ticket counters for "the last block combines": GP_TICKET_SLOTS per context, not in
 * the context workspace, because other primitives reuse the workspace and would leave
 * garbage in a counter. They are zeroed once, when the context first needs them, and
 * the last block resets its slot to zero, so no memset is needed per call. A context's
 * calls take its slots round-robin and run in order on its stream, so two running
 * kernels could share a counter only if gp_set_stream moved the context to another
 * stream while GP_TICKET_SLOTS of its calls were still queued on the old one; separate
 * contexts (threads, GPUs) never share one. */
#define GP_TICKET_SLOTS 1024u


template <typename T> struct gp_vec16 {
  union {
    uint4 u;
    T t[GP_AUTO_VEC_BYTES / sizeof(T)];
  };
};

/* How a kernel instance combines: H is the type it carries from the loads to the
 * output (per-thread accumulators, shuffles, partials), step() folds one input element
 * into an H, op() combines two H, fin() turns the final H into the output element.
 * The exact policy is the tree of reduce_tree.h with the real operator (every SUM,
 * integer MIN/MAX). Float MIN/MAX are order-independent bit for bit, so they may use
 * any tree: their policy carries the integer keys of reduce_tree.h (gp_rt_*_minkey /
 * maxkey), one integer min/max per element (F32: ~4 instructions, F64: ~9) instead
 * of the NaN / -0 compare of gp_rt_min_* (~25 instructions and two branches each),
 * and decodes the key once at the end. */
template <typename T, typename A, typename Op> struct gp_auto_exact {
  typedef A H;
  typedef Op HOp;
  static __device__ __forceinline__ H id() { return gp_rident<Op, A>::v(); }
  static __device__ __forceinline__ H step(H h, T x) { return Op()(h, static_cast<A>(x)); }
  template <typename Out> static __device__ __forceinline__ Out fin(H h) { return gp_rfinal<Out>(h); }
};
struct gp_hop_umin { template <typename U> __device__ __forceinline__ U operator()(U a, U b) const { return b < a ? b : a; } };
struct gp_hop_umax { template <typename U> __device__ __forceinline__ U operator()(U a, U b) const { return b > a ? b : a; } };
struct gp_auto_f32min {
  typedef unsigned H;
  typedef gp_hop_umin HOp;
  static __device__ __forceinline__ H id() { return 0xffffffffu; } /* key of +inf */
  static __device__ __forceinline__ H step(H h, float x) { return umin(h, gp_rt_f32_minkey(__float_as_uint(x))); }
  template <typename Out> static __device__ __forceinline__ Out fin(H h) { return gp_rfinal<Out>(gp_rt_f32_from_minkey(h)); }
};
struct gp_auto_f32max {
  typedef unsigned H;
  typedef gp_hop_umax HOp;
  static __device__ __forceinline__ H id() { return 0u; } /* key of -inf */
  static __device__ __forceinline__ H step(H h, float x) { return umax(h, gp_rt_f32_maxkey(__float_as_uint(x))); }
  template <typename Out> static __device__ __forceinline__ Out fin(H h) { return gp_rfinal<Out>(gp_rt_f32_from_maxkey(h)); }
};
struct gp_auto_f64min {
  typedef gp_u64 H;
  typedef gp_hop_umin HOp;
  static __device__ __forceinline__ H id() { return ~0ull; } /* key of +inf */
  static __device__ __forceinline__ H step(H h, double x) {
    H k = gp_rt_f64_minkey((gp_u64)__double_as_longlong(x));
    return k < h ? k : h;
  }
  template <typename Out> static __device__ __forceinline__ Out fin(H h) { return gp_rfinal<Out>(gp_rt_f64_from_minkey(h)); }
};
struct gp_auto_f64max {
  typedef gp_u64 H;
  typedef gp_hop_umax HOp;
  static __device__ __forceinline__ H id() { return 0ull; } /* key of -inf */
  static __device__ __forceinline__ H step(H h, double x) {
    H k = gp_rt_f64_maxkey((gp_u64)__double_as_longlong(x));
    return k > h ? k : h;
  }
  template <typename Out> static __device__ __forceinline__ Out fin(H h) { return gp_rfinal<Out>(gp_rt_f64_from_maxkey(h)); }
};
/* (T, A, Op) -> the policy: keyed for float MIN/MAX, the exact operator otherwise */
template <typename T, typename A, typename Op> struct gp_auto_fast { typedef gp_auto_exact<T, A, Op> type; };
template <> struct gp_auto_fast<float, float, gp_rop_min> { typedef gp_auto_f32min type; };
template <> struct gp_auto_fast<float, float, gp_rop_max> { typedef gp_auto_f32max type; };
template <> struct gp_auto_fast<double, double, gp_rop_min> { typedef gp_auto_f64min type; };
template <> struct gp_auto_fast<double, double, gp_rop_max> { typedef gp_auto_f64max type; };

/* The ladder's last step. Per tile each thread has GP_AUTO_UNROLL independent 16-byte
 * loads in flight (64 bytes; ~64-96 KB per SM), index math is 32-bit inside a tile,
 * and the grid is a few blocks per SM looping over virtual blocks, so the cost is
 * HBM bandwidth plus one launch and one ~1 us combine by the last block.
 * Costs that remain: F32 SUM converts and adds in F64 (cheap on an H200, hidden under
 * memory time); float MIN/MAX pay ~4 (F32) / ~9 (F64) integer instructions per element
 * for their keys (~16% of the issue slots at HBM speed, vs ~25 instructions and two
 * branches per element with the exact operator); a misaligned `in` falls back to
 * scalar loads of the same mapping; tiny n pays a whole launch for one block; every
 * n > one tile pays the last-block completion (partial store, fence + ticket atomic,
 * partial loads from L2: ~3 L2 round trips). */
template <typename T, typename P, typename Out, int MODE>
__global__ __launch_bounds__(GP_AUTO_THREADS, GP_AUTO_MIN_BLOCKS) void gp_reduce_auto_kernel(
    const T *__restrict__ in, size_t n, unsigned nv, typename P::H *__restrict__ partials,
    unsigned *ticket, Out *out) {
  typedef typename P::H A; /* what is carried: the accumulator, or a MIN/MAX key */
  constexpr unsigned W = GP_AUTO_VEC_BYTES / sizeof(T);
  constexpr unsigned TE = GP_AUTO_THREADS * GP_AUTO_UNROLL * W;
  __shared__ A warp_sums[GP_WARP_SIZE];
  __shared__ unsigned am_last;
  const typename P::HOp op;
  const A id = P::id();
  const unsigned tid = threadIdx.x;
  const size_t full = n / TE;
  constexpr bool VEC = MODE != GP_LOAD_SCALAR;

  gp_vec16<T> x[GP_AUTO_UNROLL], y[GP_AUTO_UNROLL];
  for (unsigned v = blockIdx.x; v < nv; v += gridDim.x) {
    A acc[W];
#pragma unroll
    for (unsigned c = 0; c < W; c++) acc[c] = id;
    if (VEC && GP_AUTO_PIPELINE) {
      /* software pipeline: the next tile's loads are issued before this tile's adds,
       * so 2 x GP_AUTO_UNROLL 16-byte loads are in flight; the order of adds is the
       * tree's (tile by tile). (Prefetching the next virtual block's first tile as
       * well measured no better at 2^22-2^26 on the H200, 2026-11-29.) */
      size_t tile = v;
      if (tile < full) {
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
            for (unsigned c = 0; c < W; c++) acc[c] = P::step(acc[c], x[u].t[c]);
          if (!more) break;
#pragma unroll
          for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) x[u] = y[u];
          tile = next;
        }
      }
    } else if (VEC) { /* one tile at a time: GP_AUTO_UNROLL loads in flight */
      for (size_t tile = v; tile < full; tile += nv) {
        const uint4 *p = reinterpret_cast<const uint4 *>(in + tile * TE) + tid;
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) x[u].u = gp_ld16<MODE>(p + u * GP_AUTO_THREADS);
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
          for (unsigned c = 0; c < W; c++) acc[c] = P::step(acc[c], x[u].t[c]);
      }
    } else { /* misaligned: scalar loads, same logical mapping, same order */
      for (size_t tile = v; tile < full; tile += nv) {
        const T *p = in + tile * TE;
        T xs[GP_AUTO_UNROLL][W];
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
          for (unsigned c = 0; c < W; c++) xs[u][c] = __ldg(p + (u * GP_AUTO_THREADS + tid) * W + c);
#pragma unroll
        for (unsigned u = 0; u < GP_AUTO_UNROLL; u++)
#pragma unroll
          for (unsigned c = 0; c < W; c++) acc[c] = P::step(acc[c], xs[u][c]);
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
          if (k < rem) acc[c] = P::step(acc[c], __ldg(p + k));
        }
    }
#pragma unroll
    for (unsigned h = W / 2; h > 0; h /= 2)
#pragma unroll
      for (unsigned j = 0; j < h; j++) acc[j] = op(acc[j], acc[j + h]);
    const A r = gp_block_reduce(acc[0], op, id, warp_sums);
    if (nv == 1) { /* one virtual block (grid of 1): it is the result */
      if (tid == 0) *out = P::template fin<Out>(r);
      return;
    }
    if (tid == 0) partials[v] = r;
  }

  /* the last block to finish combines the partials in the fixed order */
  if (gridDim.x > 1) {
    if (tid == 0) /* release: this block's partials are visible before its ticket */
      am_last = gp_ticket_acq_rel(ticket) == gridDim.x - 1;
    __syncthreads();
    if (!am_last) return;
    /* Thread 0's acq_rel atomic already acquired the other blocks' partials (it also
     * invalidates this SM's L1), and the barrier orders this block's loads after it
     * (happens-before is transitive through bar.sync in the PTX memory model); the
     * loads below also bypass L1 (.cg). A second fence (fence.acq_rel.gpu) here cost
     * 0.3-0.4 us per call at 2^14-2^24 on the H200 (measured 2026-11-29). */
  } else {
    __syncthreads(); /* one block: its own global writes are visible after the barrier */
  }
  A a = id;
  for (unsigned i = tid; i < nv; i += GP_AUTO_FINAL_THREADS) a = op(a, __ldcg(partials + i));
  a = gp_block_reduce(a, op, id, warp_sums);
  if (tid == 0) {
    *out = P::template fin<Out>(a);
    if (gridDim.x > 1) *ticket = 0; /* ready for the next call that takes this slot */
  }
}

extern "C" void gp_cuda_reduce_auto_force_grid(gp_context *ctx, unsigned grid) {
  ctx->reduce_force_grid = grid;
}

/* The context's next slot: a ticket counter and, for the exact float SUM
 * (reduce_exact.cu), a superaccumulator of GP_XS_MAX_LIMBS + 1 limbs, both zero between
 * calls. The pool (tickets, then accumulators) is allocated and zeroed on first use. */
#define GP_SLOT_ACC_OFFSET (((GP_TICKET_SLOTS * sizeof(unsigned)) + 255) & ~(size_t)255)
extern "C" gp_status gp_cuda_reduce_next_slot(gp_context *ctx, unsigned **ticket,
                                              unsigned long long **acc) {
  if (!ctx->reduce_tickets) {
    const size_t bytes =
        GP_SLOT_ACC_OFFSET + (size_t)GP_TICKET_SLOTS * (GP_XS_MAX_LIMBS + 1) * sizeof(unsigned long long);
    void *p = NULL;
    GP_CUDA_TRY(ctx, cudaMalloc(&p, bytes));
    cudaError_t e = cudaMemsetAsync(p, 0, bytes, (cudaStream_t)ctx->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize((cudaStream_t)ctx->stream);
    if (e != cudaSuccess) {
      (void)cudaFree(p);
      return gp_cuda_status(ctx, (int)e, "zeroing the reduction's ticket counters", __FILE__,
                            __LINE__);
    }
    ctx->reduce_tickets = p;
  }
  const unsigned k = ctx->reduce_ticket_next++ % GP_TICKET_SLOTS;
  *ticket = (unsigned *)ctx->reduce_tickets + k;
  if (acc)
    *acc = (unsigned long long *)((char *)ctx->reduce_tickets + GP_SLOT_ACC_OFFSET) +
           (size_t)k * (GP_XS_MAX_LIMBS + 1);
  return GP_OK;
}

/* Blocks that fit on the device at once (GPUs of different kinds differ). */
template <typename T, typename P, typename Out, int MODE>
static unsigned resident_blocks(gp_context *ctx) {
  static int per_sm[GP_RESIDENT_MAX_DEVICES];
  return gp_resident_blocks(ctx, gp_reduce_auto_kernel<T, P, Out, MODE>, GP_AUTO_THREADS, per_sm);
}

/* Physical grid for nv virtual blocks: as many as fit at once, evened out so every
 * block runs the same number of virtual blocks (no half-empty last wave). */
template <typename T, typename P, typename Out, int MODE>
static unsigned auto_grid(gp_context *ctx, unsigned nv) {
  const unsigned forced = ctx->reduce_force_grid;
  if (forced) return forced < nv ? forced : nv;
  if (nv <= GP_AUTO_SINGLE_BLOCK_V) return 1;
  unsigned res = resident_blocks<T, P, Out, MODE>(ctx);
  unsigned waves = (nv + res - 1) / res;
  return (nv + waves - 1) / waves;
}

/* Launches policy P with the load mode the input's alignment and size call for, with
 * the ticket counter `slot`; returns the grid it launched. */
template <typename T, typename P, typename Out>
static unsigned launch_auto(gp_context *ctx, const T *in, size_t n, void *scratch, Out *out,
                            unsigned *slot) {
  const unsigned nv = gp_rt_auto_vblocks(n, sizeof(T));
  typename P::H *partials = static_cast<typename P::H *>(scratch);
  cudaStream_t st = (cudaStream_t)ctx->stream;
  static_assert(GP_AUTO_VEC_BYTES == 16, "gp_load_mode's vector loads are 16 bytes");
  unsigned g;
  const int mode = gp_load_mode(in, n * sizeof(T));
  if (mode == GP_LOAD_SCALAR) {
    g = auto_grid<T, P, Out, GP_LOAD_SCALAR>(ctx, nv);
    gp_reduce_auto_kernel<T, P, Out, GP_LOAD_SCALAR>
        <<<g, GP_AUTO_THREADS, 0, st>>>(in, n, nv, partials, slot, out);
  } else if (mode == GP_LOAD_NOALLOC) {
    g = auto_grid<T, P, Out, GP_LOAD_NOALLOC>(ctx, nv);
    gp_reduce_auto_kernel<T, P, Out, GP_LOAD_NOALLOC>
        <<<g, GP_AUTO_THREADS, 0, st>>>(in, n, nv, partials, slot, out);
  } else {
    g = auto_grid<T, P, Out, GP_LOAD_VEC>(ctx, nv);
    gp_reduce_auto_kernel<T, P, Out, GP_LOAD_VEC>
        <<<g, GP_AUTO_THREADS, 0, st>>>(in, n, nv, partials, slot, out);
  }
  return g;
}

/* Float MIN/MAX take the keyed policy. */
template <typename T, typename A, typename Op>
static gp_status run_auto(gp_context *ctx, const void *vin, size_t n, void *scratch, void *vout) {
  typedef typename gp_rout<T, A>::type Out;
  unsigned *slot = NULL;
  gp_status s = gp_cuda_reduce_next_slot(ctx, &slot, NULL);
  if (s) return s;
  const unsigned grid = launch_auto<T, typename gp_auto_fast<T, A, Op>::type, Out>(
      ctx, static_cast<const T *>(vin), n, scratch, static_cast<Out *>(vout), slot);
  GP_LAUNCH_CHECK(ctx, "gp_reduce_auto_kernel", grid, GP_AUTO_THREADS, 0);
  return GP_OK;
}

extern "C" gp_status gp_cuda_reduce_auto(gp_context *ctx, gp_op op, gp_dtype type,
                                         const void *d_in, size_t n, void *scratch, void *d_out) {
  if (op == GP_SUM && (type == GP_F32 || type == GP_F64)) /* correctly rounded */
    return gp_cuda_sum_exact(ctx, type, d_in, n, scratch, d_out);
  GP_REDUCE_DISPATCH(run_auto, double, op, type, ctx, d_in, n, scratch, d_out)
  return gp_fail(ctx, GP_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)type);
}

/* One "kind" of CPU reduction (input type, accumulator type, operator), stamped out by
 * including this file after defining RK_NAME, RK_IN, RK_ACC, RK_LOAD(x), RK_OP(a,b) and
 * RK_IDENT. Each algorithm follows its GPU kernel's blocks, lanes and order of
 * operations exactly (see src/core/reduce_tree.h), so results match bit for bit.
 * No include guard on purpose: src/cpu/reduce_cpu.c includes it once per kind. */

#define RK_CAT2(a, b) a##_##b
#define RK_CAT(a, b) RK_CAT2(a, b)
#define RK_(x) RK_CAT(RK_NAME, x)

/* Chapter 4.1: at step s the threads with tid % (2*s) == 0 add sdata[tid + s]. */
static void RK_(tree_interleaved)(RK_ACC *s) {
  for (unsigned st = 1; st < GP_SEED_BLOCK; st *= 2)
    for (unsigned tid = 0; tid < GP_SEED_BLOCK; tid += 2 * st) s[tid] = RK_OP(s[tid], s[tid + st]);
}

/* Chapter 4.2: at step s the threads tid < s add sdata[tid + s]. */
static void RK_(tree_sequential)(RK_ACC *s) {
  for (unsigned st = GP_SEED_BLOCK / 2; st > 0; st /= 2)
    for (unsigned tid = 0; tid < st; tid++) s[tid] = RK_OP(s[tid], s[tid + st]);
}

/* __shfl_down_sync tree over 32 lanes (offsets 16..1): lane l takes op(v[l], v[l+o]).
 * Only lanes < o matter for lane 0's result, which lands in v[0]. */
static void RK_(warp_tree)(RK_ACC *v) {
  for (unsigned o = 16; o > 0; o /= 2)
    for (unsigned l = 0; l < o; l++) v[l] = RK_OP(v[l], v[l + o]);
}

/* gp_block_reduce (src/cuda/common/warp_reduce.cuh): each warp's tree, lane 0 writes
 * warp_sums[w], warp 0 runs the tree over warp_sums padded with the identity.
 * Overwrites v. nthreads is a multiple of 32, at most 1024. */
static RK_ACC RK_(block_reduce)(RK_ACC *v, unsigned nthreads) {
  RK_ACC warp_sums[32];
  unsigned nw = nthreads / 32;
  for (unsigned w = 0; w < nw; w++) {
    RK_(warp_tree)(v + 32 * w);
    warp_sums[w] = v[32 * w];
  }
  for (unsigned w = nw; w < 32; w++) warp_sums[w] = RK_IDENT;
  RK_(warp_tree)(warp_sums);
  return warp_sums[0];
}

/* One block of the 4.1/4.2 kernel over 256 consecutive elements: the first pass
 * reads the input (tile_in), relaunches read the previous pass's partials. */
static RK_ACC RK_(tile_in)(const RK_IN *src, size_t count, size_t b, int interleaved) {
  RK_ACC s[GP_SEED_BLOCK];
  size_t base = b * GP_SEED_BLOCK;
  for (unsigned t = 0; t < GP_SEED_BLOCK; t++)
    s[t] = (base + t < count) ? RK_LOAD(src[base + t]) : RK_IDENT;
  if (interleaved) RK_(tree_interleaved)(s); else RK_(tree_sequential)(s);
  return s[0];
}
static RK_ACC RK_(tile_acc)(const RK_ACC *src, size_t count, size_t b, int interleaved) {
  RK_ACC s[GP_SEED_BLOCK];
  size_t base = b * GP_SEED_BLOCK;
  for (unsigned t = 0; t < GP_SEED_BLOCK; t++) s[t] = (base + t < count) ? src[base + t] : RK_IDENT;
  if (interleaved) RK_(tree_interleaved)(s); else RK_(tree_sequential)(s);
  return s[0];
}

/* INTERLEAVED / SEQUENTIAL: per-block partials, then relaunches on the partials. */
static int RK_(seed_tree)(const RK_IN *in, size_t n, int interleaved, RK_ACC *res) {
  size_t nb = gp_rt_div_up(n, GP_SEED_BLOCK);
  if (nb == 0) { *res = RK_IDENT; return 0; }
  RK_ACC *a = (RK_ACC *)malloc(nb * sizeof *a);
  RK_ACC *b2 = (RK_ACC *)malloc((gp_rt_div_up(nb, GP_SEED_BLOCK) + 1) * sizeof *b2);
  if (!a || !b2) { free(a); free(b2); return -1; }
  ptrdiff_t nbs = (ptrdiff_t)nb;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nb > 64)
#endif
  for (ptrdiff_t b = 0; b < nbs; b++)
    a[b] = RK_(tile_in)(in, n, (size_t)b, interleaved);
  while (nb > 1) {
    size_t next = gp_rt_div_up(nb, GP_SEED_BLOCK);
    for (size_t b = 0; b < next; b++)
      b2[b] = RK_(tile_acc)(a, nb, b, interleaved);
    memcpy(a, b2, next * sizeof *a);
    nb = next;
  }
  *res = a[0];
  free(a);
  free(b2);
  return 0;
}

/* The values of block b's `bs` threads after a grid-stride loop over a grid of `stride`
 * threads: thread t folds in[b * bs + t], then + stride, ... in that order (taken row by
 * row). */
static void RK_(grid_stride)(const RK_IN *in, size_t n, size_t b, unsigned bs, size_t stride,
                             RK_ACC *s) {
  for (unsigned t = 0; t < bs; t++) s[t] = RK_IDENT;
  for (size_t base = b * bs; base < n; base += stride) {
    size_t m = n - base < bs ? n - base : bs;
    for (size_t t = 0; t < m; t++) s[t] = RK_OP(s[t], RK_LOAD(in[base + t]));
  }
}

/* TWO_PHASE: phase 1 grid-strides over B blocks of 256 threads then the sequential
 * tree; phase 2 is one block of 256 that grid-strides over the B partials. */
static int RK_(two_phase)(const RK_IN *in, size_t n, unsigned nblocks, RK_ACC *res) {
  RK_ACC *part = (RK_ACC *)malloc((size_t)nblocks * sizeof *part);
  if (!part) return -1;
  size_t stride = (size_t)nblocks * GP_SEED_BLOCK;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
  for (ptrdiff_t b = 0; b < (ptrdiff_t)nblocks; b++) {
    RK_ACC s[GP_SEED_BLOCK];
    RK_(grid_stride)(in, n, (size_t)b, GP_SEED_BLOCK, stride, s);
    RK_(tree_sequential)(s);
    part[b] = s[0];
  }
  RK_ACC s[GP_SEED_BLOCK];
  for (unsigned t = 0; t < GP_SEED_BLOCK; t++) {
    RK_ACC acc = RK_IDENT;
    for (size_t i = t; i < nblocks; i += GP_SEED_BLOCK) acc = RK_OP(acc, part[i]);
    s[t] = acc;
  }
  RK_(tree_sequential)(s);
  *res = s[0];
  free(part);
  return 0;
}

/* WARP_ATOMIC: per-block values exactly as the kernel computes them; the blocks'
 * atomics are applied in block order (on the GPU their order varies, which changes
 * only float SUM bits). */
static int RK_(warp_atomic)(const RK_IN *in, size_t n, RK_ACC *res) {
  unsigned g = gp_rt_wa_blocks(n);
  RK_ACC *blk = (RK_ACC *)malloc((size_t)g * sizeof *blk);
  if (!blk) return -1;
  size_t stride = (size_t)g * GP_WA_BLOCK;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
  for (ptrdiff_t b = 0; b < (ptrdiff_t)g; b++) {
    RK_ACC v[GP_WA_BLOCK];
    RK_(grid_stride)(in, n, (size_t)b, GP_WA_BLOCK, stride, v);
    blk[b] = RK_(block_reduce)(v, GP_WA_BLOCK);
  }
  RK_ACC r = RK_IDENT;
  for (unsigned b = 0; b < g; b++) r = RK_OP(r, blk[b]);
  *res = r;
  free(blk);
  return 0;
}

/* AUTO: the tree of src/core/reduce_tree.h, virtual block by virtual block. */
static int RK_(auto)(const RK_IN *in, size_t n, RK_ACC *res) {
  const unsigned vec = gp_rt_auto_vec(sizeof(RK_IN));
  const size_t te = gp_rt_auto_tile(sizeof(RK_IN));
  const size_t row = (size_t)GP_AUTO_THREADS * vec; /* elements of one u step */
  const size_t full = n / te;
  const unsigned nv = gp_rt_auto_vblocks(n, sizeof(RK_IN));
  RK_ACC *part = (RK_ACC *)malloc((size_t)nv * sizeof *part);
  if (!part) return -1;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
  for (ptrdiff_t v = 0; v < (ptrdiff_t)nv; v++) {
    RK_ACC acc[GP_AUTO_THREADS * (GP_AUTO_VEC_BYTES / 4)];
    for (size_t j = 0; j < row; j++) acc[j] = RK_IDENT;
    /* acc[t*vec + c] is thread t's accumulator c; element (u*256 + t)*vec + c of a
     * tile is component c of thread t's u-th vector. */
    for (size_t tile = (size_t)v; tile < full; tile += nv) {
      const RK_IN *p = in + tile * te;
      for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) {
        const RK_IN *pu = p + u * row;
        for (size_t j = 0; j < row; j++) acc[j] = RK_OP(acc[j], RK_LOAD(pu[j]));
      }
    }
    if (full * te < n && full % nv == (size_t)v) { /* the partial tile comes last */
      const RK_IN *p = in + full * te;
      size_t rem = n - full * te;
      for (size_t k = 0; k < rem; k++) {
        size_t j = k % row;
        acc[j] = RK_OP(acc[j], RK_LOAD(p[k]));
      }
    }
    RK_ACC r[GP_AUTO_THREADS];
    for (unsigned t = 0; t < GP_AUTO_THREADS; t++) {
      RK_ACC *a = acc + (size_t)t * vec;
      for (unsigned h = vec / 2; h > 0; h /= 2)
        for (unsigned j = 0; j < h; j++) a[j] = RK_OP(a[j], a[j + h]);
      r[t] = a[0];
    }
    part[v] = RK_(block_reduce)(r, GP_AUTO_THREADS);
  }
  RK_ACC f[GP_AUTO_FINAL_THREADS];
  for (unsigned t = 0; t < GP_AUTO_FINAL_THREADS; t++) {
    RK_ACC a = RK_IDENT;
    for (size_t i = t; i < nv; i += GP_AUTO_FINAL_THREADS) a = RK_OP(a, part[i]);
    f[t] = a;
  }
  *res = RK_(block_reduce)(f, GP_AUTO_FINAL_THREADS);
  free(part);
  return 0;
}

/* 0 on success, -1 when host memory ran out. */
static int RK_(run)(gp_reduce_algo algo, const void *vin, size_t n, unsigned two_phase_blocks,
                    RK_ACC *res) {
  const RK_IN *in = (const RK_IN *)vin;
  switch (algo) {
  case GP_REDUCE_INTERLEAVED: return RK_(seed_tree)(in, n, 1, res);
  case GP_REDUCE_SEQUENTIAL: return RK_(seed_tree)(in, n, 0, res);
  case GP_REDUCE_TWO_PHASE: return RK_(two_phase)(in, n, two_phase_blocks, res);
  case GP_REDUCE_WARP_ATOMIC: return RK_(warp_atomic)(in, n, res);
  case GP_REDUCE_AUTO: break;
  }
  return RK_(auto)(in, n, res);
}

#undef RK_
#undef RK_CAT
#undef RK_CAT2
#undef RK_NAME
#undef RK_IN
#undef RK_ACC
#undef RK_LOAD
#undef RK_OP
#undef RK_IDENT

/* The CPU replay of every gp_reduce algorithm for one (input type, accumulator,
 * operator), stamped out by src/cpu/reduce_cpu.c: it defines RS_IN, RS_ACC, RS_LOAD(x),
 * RS_OP(a,b), RS_IDENT and the full name of each function below (RS_TREE_INTERLEAVED
 * f32sum32_tree_interleaved, ..., RS_RUN f32sum32_run), so every stamped name can be
 * found with grep, then includes this file. Each algorithm follows its GPU kernel's
 * blocks, lanes and order of operations exactly (see src/core/reduce_tree.h), so
 * results match bit for bit. No include guard on purpose: one include per stamp. */

#if !defined(RS_IN) || !defined(RS_ACC) || !defined(RS_LOAD) || !defined(RS_OP) ||       \
    !defined(RS_IDENT) || !defined(RS_TREE_INTERLEAVED) || !defined(RS_TREE_SEQUENTIAL) || \
    !defined(RS_WARP_TREE) || !defined(RS_BLOCK_REDUCE) || !defined(RS_TILE_IN) ||        \
    !defined(RS_TILE_ACC) || !defined(RS_SEED_TREE) || !defined(RS_GRID_STRIDE) ||        \
    !defined(RS_TWO_PHASE) || !defined(RS_WARP_ATOMIC) || !defined(RS_AUTO) ||            \
    !defined(RS_RUN)
#error "reduce_cpu_stamp.h: define RS_IN, RS_ACC, RS_LOAD, RS_OP, RS_IDENT and every function name first"
#endif

/* Chapter 4.1: at step s the threads with tid % (2*s) == 0 add sdata[tid + s]. */
static void RS_TREE_INTERLEAVED(RS_ACC *s) {
  for (unsigned st = 1; st < GP_SEED_BLOCK; st *= 2)
    for (unsigned tid = 0; tid < GP_SEED_BLOCK; tid += 2 * st) s[tid] = RS_OP(s[tid], s[tid + st]);
}

/* Chapter 4.2: at step s the threads tid < s add sdata[tid + s]. */
static void RS_TREE_SEQUENTIAL(RS_ACC *s) {
  for (unsigned st = GP_SEED_BLOCK / 2; st > 0; st /= 2)
    for (unsigned tid = 0; tid < st; tid++) s[tid] = RS_OP(s[tid], s[tid + st]);
}

/* __shfl_down_sync tree over 32 lanes (offsets 16..1): lane l takes op(v[l], v[l+o]).
 * Only lanes < o matter for lane 0's result, which lands in v[0]. */
static void RS_WARP_TREE(RS_ACC *v) {
  for (unsigned o = 16; o > 0; o /= 2)
    for (unsigned l = 0; l < o; l++) v[l] = RS_OP(v[l], v[l + o]);
}

/* gp_block_reduce (src/cuda/common/warp_reduce.cuh): each warp's tree, lane 0 writes
 * warp_sums[w], warp 0 runs the tree over warp_sums padded with the identity.
 * Overwrites v. nthreads is a multiple of 32, at most 1024. */
static RS_ACC RS_BLOCK_REDUCE(RS_ACC *v, unsigned nthreads) {
  RS_ACC warp_sums[32];
  unsigned nw = nthreads / 32;
  for (unsigned w = 0; w < nw; w++) {
    RS_WARP_TREE(v + 32 * w);
    warp_sums[w] = v[32 * w];
  }
  for (unsigned w = nw; w < 32; w++) warp_sums[w] = RS_IDENT;
  RS_WARP_TREE(warp_sums);
  return warp_sums[0];
}

/* One block of the 4.1/4.2 kernel over 256 consecutive elements: the first pass
 * reads the input (tile_in), relaunches read the previous pass's partials. */
static RS_ACC RS_TILE_IN(const RS_IN *src, size_t count, size_t b, int interleaved) {
  RS_ACC s[GP_SEED_BLOCK];
  size_t base = b * GP_SEED_BLOCK;
  for (unsigned t = 0; t < GP_SEED_BLOCK; t++)
    s[t] = (base + t < count) ? RS_LOAD(src[base + t]) : RS_IDENT;
  if (interleaved) RS_TREE_INTERLEAVED(s); else RS_TREE_SEQUENTIAL(s);
  return s[0];
}
static RS_ACC RS_TILE_ACC(const RS_ACC *src, size_t count, size_t b, int interleaved) {
  RS_ACC s[GP_SEED_BLOCK];
  size_t base = b * GP_SEED_BLOCK;
  for (unsigned t = 0; t < GP_SEED_BLOCK; t++) s[t] = (base + t < count) ? src[base + t] : RS_IDENT;
  if (interleaved) RS_TREE_INTERLEAVED(s); else RS_TREE_SEQUENTIAL(s);
  return s[0];
}

/* INTERLEAVED / SEQUENTIAL: per-block partials, then relaunches on the partials. */
static int RS_SEED_TREE(const RS_IN *in, size_t n, int interleaved, RS_ACC *res) {
  size_t nb = gp_rt_div_up(n, GP_SEED_BLOCK);
  if (nb == 0) { *res = RS_IDENT; return 0; }
  RS_ACC *a = (RS_ACC *)malloc(nb * sizeof *a);
  RS_ACC *b2 = (RS_ACC *)malloc((gp_rt_div_up(nb, GP_SEED_BLOCK) + 1) * sizeof *b2);
  if (!a || !b2) { free(a); free(b2); return -1; }
  ptrdiff_t nbs = (ptrdiff_t)nb;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (nb > 64)
#endif
  for (ptrdiff_t b = 0; b < nbs; b++)
    a[b] = RS_TILE_IN(in, n, (size_t)b, interleaved);
  while (nb > 1) {
    size_t next = gp_rt_div_up(nb, GP_SEED_BLOCK);
    for (size_t b = 0; b < next; b++)
      b2[b] = RS_TILE_ACC(a, nb, b, interleaved);
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
static void RS_GRID_STRIDE(const RS_IN *in, size_t n, size_t b, unsigned bs, size_t stride,
                             RS_ACC *s) {
  for (unsigned t = 0; t < bs; t++) s[t] = RS_IDENT;
  for (size_t base = b * bs; base < n; base += stride) {
    size_t m = n - base < bs ? n - base : bs;
    for (size_t t = 0; t < m; t++) s[t] = RS_OP(s[t], RS_LOAD(in[base + t]));
  }
}

/* TWO_PHASE: phase 1 grid-strides over B blocks of 256 threads then the sequential
 * tree; phase 2 is one block of 256 that grid-strides over the B partials. */
static int RS_TWO_PHASE(const RS_IN *in, size_t n, unsigned nblocks, RS_ACC *res) {
  RS_ACC *part = (RS_ACC *)malloc((size_t)nblocks * sizeof *part);
  if (!part) return -1;
  size_t stride = (size_t)nblocks * GP_SEED_BLOCK;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
  for (ptrdiff_t b = 0; b < (ptrdiff_t)nblocks; b++) {
    RS_ACC s[GP_SEED_BLOCK];
    RS_GRID_STRIDE(in, n, (size_t)b, GP_SEED_BLOCK, stride, s);
    RS_TREE_SEQUENTIAL(s);
    part[b] = s[0];
  }
  RS_ACC s[GP_SEED_BLOCK];
  for (unsigned t = 0; t < GP_SEED_BLOCK; t++) {
    RS_ACC acc = RS_IDENT;
    for (size_t i = t; i < nblocks; i += GP_SEED_BLOCK) acc = RS_OP(acc, part[i]);
    s[t] = acc;
  }
  RS_TREE_SEQUENTIAL(s);
  *res = s[0];
  free(part);
  return 0;
}

/* WARP_ATOMIC: per-block values exactly as the kernel computes them; the blocks'
 * atomics are applied in block order (on the GPU their order varies, which changes
 * only float SUM bits). */
static int RS_WARP_ATOMIC(const RS_IN *in, size_t n, RS_ACC *res) {
  unsigned g = gp_rt_wa_blocks(n);
  RS_ACC *blk = (RS_ACC *)malloc((size_t)g * sizeof *blk);
  if (!blk) return -1;
  size_t stride = (size_t)g * GP_WA_BLOCK;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
  for (ptrdiff_t b = 0; b < (ptrdiff_t)g; b++) {
    RS_ACC v[GP_WA_BLOCK];
    RS_GRID_STRIDE(in, n, (size_t)b, GP_WA_BLOCK, stride, v);
    blk[b] = RS_BLOCK_REDUCE(v, GP_WA_BLOCK);
  }
  RS_ACC r = RS_IDENT;
  for (unsigned b = 0; b < g; b++) r = RS_OP(r, blk[b]);
  *res = r;
  free(blk);
  return 0;
}

/* AUTO: the tree of src/core/reduce_tree.h, virtual block by virtual block. */
static int RS_AUTO(const RS_IN *in, size_t n, RS_ACC *res) {
  const unsigned vec = gp_rt_auto_vec(sizeof(RS_IN));
  const size_t te = gp_rt_auto_tile(sizeof(RS_IN));
  const size_t row = (size_t)GP_AUTO_THREADS * vec; /* elements of one u step */
  const size_t full = n / te;
  const unsigned nv = gp_rt_auto_vblocks(n, sizeof(RS_IN));
  RS_ACC *part = (RS_ACC *)malloc((size_t)nv * sizeof *part);
  if (!part) return -1;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (n > 65536)
#endif
  for (ptrdiff_t v = 0; v < (ptrdiff_t)nv; v++) {
    RS_ACC acc[GP_AUTO_THREADS * (GP_AUTO_VEC_BYTES / 4)];
    for (size_t j = 0; j < row; j++) acc[j] = RS_IDENT;
    /* acc[t*vec + c] is thread t's accumulator c; element (u*256 + t)*vec + c of a
     * tile is component c of thread t's u-th vector. */
    for (size_t tile = (size_t)v; tile < full; tile += nv) {
      const RS_IN *p = in + tile * te;
      for (unsigned u = 0; u < GP_AUTO_UNROLL; u++) {
        const RS_IN *pu = p + u * row;
        for (size_t j = 0; j < row; j++) acc[j] = RS_OP(acc[j], RS_LOAD(pu[j]));
      }
    }
    if (full * te < n && full % nv == (size_t)v) { /* the partial tile comes last */
      const RS_IN *p = in + full * te;
      size_t rem = n - full * te;
      for (size_t k = 0; k < rem; k++) {
        size_t j = k % row;
        acc[j] = RS_OP(acc[j], RS_LOAD(p[k]));
      }
    }
    RS_ACC r[GP_AUTO_THREADS];
    for (unsigned t = 0; t < GP_AUTO_THREADS; t++) {
      RS_ACC *a = acc + (size_t)t * vec;
      for (unsigned h = vec / 2; h > 0; h /= 2)
        for (unsigned j = 0; j < h; j++) a[j] = RS_OP(a[j], a[j + h]);
      r[t] = a[0];
    }
    part[v] = RS_BLOCK_REDUCE(r, GP_AUTO_THREADS);
  }
  RS_ACC f[GP_AUTO_FINAL_THREADS];
  for (unsigned t = 0; t < GP_AUTO_FINAL_THREADS; t++) {
    RS_ACC a = RS_IDENT;
    for (size_t i = t; i < nv; i += GP_AUTO_FINAL_THREADS) a = RS_OP(a, part[i]);
    f[t] = a;
  }
  *res = RS_BLOCK_REDUCE(f, GP_AUTO_FINAL_THREADS);
  free(part);
  return 0;
}

/* 0 on success, -1 when host memory ran out. */
static int RS_RUN(gp_reduce_algo algo, const void *vin, size_t n, unsigned two_phase_blocks,
                    RS_ACC *res) {
  const RS_IN *in = (const RS_IN *)vin;
  switch (algo) {
  case GP_REDUCE_INTERLEAVED: return RS_SEED_TREE(in, n, 1, res);
  case GP_REDUCE_SEQUENTIAL: return RS_SEED_TREE(in, n, 0, res);
  case GP_REDUCE_TWO_PHASE: return RS_TWO_PHASE(in, n, two_phase_blocks, res);
  case GP_REDUCE_WARP_ATOMIC: return RS_WARP_ATOMIC(in, n, res);
  case GP_REDUCE_AUTO: break;
  }
  return RS_AUTO(in, n, res);
}

#undef RS_IN
#undef RS_ACC
#undef RS_LOAD
#undef RS_OP
#undef RS_IDENT
#undef RS_TREE_INTERLEAVED
#undef RS_TREE_SEQUENTIAL
#undef RS_WARP_TREE
#undef RS_BLOCK_REDUCE
#undef RS_TILE_IN
#undef RS_TILE_ACC
#undef RS_SEED_TREE
#undef RS_GRID_STRIDE
#undef RS_TWO_PHASE
#undef RS_WARP_ATOMIC
#undef RS_AUTO
#undef RS_RUN

/* The vector lanes of the CPU's correctly rounded sum (reduce_exact_cpu.c), written once
 * and included once per instruction set with these defined:
 *   XS_ATTR            the functions' target attribute
 *   XS_NAME(n)         n with the set's suffix
 *   XS_VEC, XS_W       a vector of XS_W doubles
 *   XS_NV              vectors of lanes (XS_W * XS_NV = 16 lanes)
 *   XS_MASK            a per-lane mask; XS_MOR(a, b) its or, XS_MBITS(m) its bits as an
 *                      unsigned, XS_MNONE the empty mask
 *   XS_ADD, XS_SUB     lane-wise, rounding as written
 *   XS_NEQ0(e)         lanes where e != 0 or e is NaN
 *   XS_BIG(s)          lanes where |s| >= GP_XS_F64_HEAD_MAX or s is NaN
 *   XS_BLEND(m, s, h)  per lane: m ? h : s
 *   XS_LOADX(x, f32, i) XS_W inputs from x[i] as doubles (F32 widened exactly)
 *   XS_LOADU, XS_STOREU doubles from / to memory
 * Every lane is an independent expansion; the lane count never changes the exact sum.
 * The macros above are undefined at the end. */

/* TwoSum per lane: a + b rounded, and its exact error in *err (NaN when the sum is
 * not finite) */
XS_ATTR static inline XS_VEC XS_NAME(xs_two_sum)(XS_VEC a, XS_VEC b, XS_VEC *err) {
  const XS_VEC s = XS_ADD(a, b);
  const XS_VEC bb = XS_SUB(s, a);
  *err = XS_ADD(XS_SUB(a, XS_SUB(s, bb)), XS_SUB(b, bb));
  return s;
}

/* One TwoSum per lane: s = h + v, and the lanes where it was not exact (NaN e too). */
XS_ATTR static inline XS_MASK XS_NAME(xs_inexact)(XS_VEC h, XS_VEC v, XS_VEC *s) {
  XS_VEC e;
  *s = XS_NAME(xs_two_sum)(h, v, &e);
  return XS_NEQ0(e);
}

/* 16 inputs from x[i] into the lanes hv: the exact lanes (for F64 also keeping the head
 * below GP_XS_F64_HEAD_MAX) take s; each other input goes on as the scalar code sends
 * it: F32 to the accumulator, F64 through gp_xs_add2's low word first (h, l: the lanes
 * in memory, for that). */
XS_ATTR static inline void XS_NAME(xs_step)(const void *x, int f32, size_t i, XS_VEC *hv,
                                            double *h, double *l, int64_t *acc) {
  unsigned m = 0;
  for (int k = 0; k < XS_NV; k++) {
    XS_VEC s;
    XS_MASK mk = XS_NAME(xs_inexact)(hv[k], XS_LOADX(x, f32, i + (size_t)k * XS_W), &s);
    if (!f32) mk = XS_MOR(mk, XS_BIG(s));
    hv[k] = XS_BLEND(mk, s, hv[k]);
    m |= XS_MBITS(mk) << (k * XS_W);
  }
  if (m == 0) return;
  const int L = f32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS, lsb = f32 ? GP_XS_F32_LSB : GP_XS_F64_LSB;
  for (int k = 0; k < XS_NV; k++) XS_STOREU(h + k * XS_W, hv[k]);
  for (int c = 0; c < XS_W * XS_NV; c++) {
    const double v = xs_at(x, f32, i + (size_t)c);
    if ((m >> c) & 1 && (f32 || !gp_xs_add2(&h[c], &l[c], v))) gp_xs_add_plain(acc, L, lsb, v);
  }
  for (int k = 0; k < XS_NV; k++) hv[k] = XS_LOADU(h + k * XS_W);
}

/* Dense runs from x[i] on (see xs_dense1): each lane (h, l, lo) in three parts, every
 * addition taken and its error carried down; a run in which lo's own addition was not
 * exact, or an input was NaN or infinite or (F64) took h past GP_XS_F64_HEAD_MAX, is
 * redone from its start step by step. Returns where the runs stopped; l and lo go back
 * to memory. */
XS_ATTR static inline size_t XS_NAME(xs_dense_lanes)(const void *x, int f32, size_t i, size_t n,
                                                     XS_VEC *hv, double *h, double *l,
                                                     double *lo, int64_t *acc) {
  XS_VEC lv[XS_NV], ov[XS_NV], ch[XS_NV], cl[XS_NV], co[XS_NV];
  for (int k = 0; k < XS_NV; k++) { lv[k] = XS_LOADU(l + k * XS_W); ov[k] = XS_LOADU(lo + k * XS_W); }
  const size_t step = (size_t)XS_W * XS_NV;
  const int L = f32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS, lsb = f32 ? GP_XS_F32_LSB : GP_XS_F64_LSB;
  for (; i + step * GP_XS_RUN <= n; i += step * GP_XS_RUN) {
    XS_MASK bad = XS_MNONE;
    for (int k = 0; k < XS_NV; k++) { ch[k] = hv[k]; cl[k] = lv[k]; co[k] = ov[k]; }
    for (size_t j = i; j < i + step * GP_XS_RUN; j += step)
      for (int k = 0; k < XS_NV; k++) {
        XS_VEC e, f, g;
        const XS_VEC s = XS_NAME(xs_two_sum)(hv[k], XS_LOADX(x, f32, j + (size_t)k * XS_W), &e);
        if (!f32) bad = XS_MOR(bad, XS_BIG(s));
        lv[k] = XS_NAME(xs_two_sum)(lv[k], e, &f);
        ov[k] = XS_NAME(xs_two_sum)(ov[k], f, &g);
        bad = XS_MOR(bad, XS_NEQ0(g));
        hv[k] = s;
      }
    if (XS_MBITS(bad) == 0) continue;
    for (int k = 0; k < XS_NV; k++) {
      XS_STOREU(h + k * XS_W, ch[k]);
      XS_STOREU(l + k * XS_W, cl[k]);
      XS_STOREU(lo + k * XS_W, co[k]);
    }
    for (size_t j = i; j < i + step * GP_XS_RUN; j += step)
      for (int c = 0; c < XS_W * XS_NV; c++)
        xs_dense1(&h[c], &l[c], &lo[c], xs_at(x, f32, j + (size_t)c), acc, L, lsb);
    for (int k = 0; k < XS_NV; k++) {
      hv[k] = XS_LOADU(h + k * XS_W);
      lv[k] = XS_LOADU(l + k * XS_W);
      ov[k] = XS_LOADU(lo + k * XS_W);
    }
  }
  for (int k = 0; k < XS_NV; k++) { XS_STOREU(l + k * XS_W, lv[k]); XS_STOREU(lo + k * XS_W, ov[k]); }
  return i;
}

/* The lanes (h, l)[0..16) over x[0..n); returns how many inputs they took (a multiple of
 * 16). Runs of GP_XS_RUN steps are first taken as if every addition were exact, so the
 * lanes' only loop-carried dependence is one add (the exactness test would put the whole
 * TwoSum on it); a run where one was not is redone from its start step by step. After
 * more than GP_XS_CPU_DENSE_AFTER such runs the rest goes by dense runs (with lo).
 * f32 is a constant at each call, so each width gets its own loop. */
XS_ATTR static inline size_t XS_NAME(xs_lanes)(const void *x, int f32, size_t n, double *h,
                                               double *l, double *lo, int64_t *acc) {
  XS_VEC hv[XS_NV], cv[XS_NV];
  for (int k = 0; k < XS_NV; k++) hv[k] = XS_LOADU(h + k * XS_W);
  const size_t step = (size_t)XS_W * XS_NV;
  size_t i = 0;
  int redone = 0;
  for (; i + step * GP_XS_RUN <= n; i += step * GP_XS_RUN) {
    XS_MASK bad = XS_MNONE;
    for (int k = 0; k < XS_NV; k++) cv[k] = hv[k];
    for (size_t j = i; j < i + step * GP_XS_RUN; j += step)
      for (int k = 0; k < XS_NV; k++) {
        XS_VEC s;
        bad = XS_MOR(bad, XS_NAME(xs_inexact)(hv[k], XS_LOADX(x, f32, j + (size_t)k * XS_W), &s));
        if (!f32) bad = XS_MOR(bad, XS_BIG(s));
        hv[k] = s;
      }
    if (XS_MBITS(bad) == 0) continue;
    for (int k = 0; k < XS_NV; k++) hv[k] = cv[k];
    for (size_t j = i; j < i + step * GP_XS_RUN; j += step)
      XS_NAME(xs_step)(x, f32, j, hv, h, l, acc);
    if (++redone > GP_XS_CPU_DENSE_AFTER) {
      i = XS_NAME(xs_dense_lanes)(x, f32, i + step * GP_XS_RUN, n, hv, h, l, lo, acc);
      break;
    }
  }
  for (; i + step <= n; i += step) XS_NAME(xs_step)(x, f32, i, hv, h, l, acc);
  for (int k = 0; k < XS_NV; k++) XS_STOREU(h + k * XS_W, hv[k]);
  return i;
}

/* One chunk with the vector lanes first, the scalar tail after; the lanes' expansions go
 * to the accumulator at the end, as in chunk_f32 / chunk_f64. */
XS_ATTR static void XS_NAME(chunk_vec)(gp_dtype type, const void *p, size_t n, int64_t *acc) {
  double h[GP_XS_V], l[GP_XS_V], lo[GP_XS_V];
  for (int c = 0; c < GP_XS_V; c++) h[c] = l[c] = lo[c] = -0.0;
  const int f32 = type == GP_F32;
  const int L = f32 ? GP_XS_F32_LIMBS : GP_XS_F64_LIMBS, lsb = f32 ? GP_XS_F32_LSB : GP_XS_F64_LSB;
  size_t i = f32 ? XS_NAME(xs_lanes)(p, 1, n, h, l, lo, acc) : XS_NAME(xs_lanes)(p, 0, n, h, l, lo, acc);
  for (; i < n; i++) {
    const double v = xs_at(p, f32, i);
    if (!(f32 ? gp_xs_add1(&h[0], v) : gp_xs_add2(&h[0], &l[0], v)))
      gp_xs_add_plain(acc, L, lsb, v);
  }
  for (int c = 0; c < GP_XS_V; c++) {
    gp_xs_add_plain(acc, L, lsb, h[c]);
    gp_xs_add_plain(acc, L, lsb, l[c]); /* F32: -0 unless dense runs gave it a part */
    gp_xs_add_plain(acc, L, lsb, lo[c]);
    acc[L] |= gp_xs_head_flag(h[c]);
  }
  gp_xs_normalize(acc, L);
}

#undef XS_ATTR
#undef XS_NAME
#undef XS_VEC
#undef XS_W
#undef XS_NV
#undef XS_MASK
#undef XS_MOR
#undef XS_MBITS
#undef XS_MNONE
#undef XS_ADD
#undef XS_SUB
#undef XS_NEQ0
#undef XS_BIG
#undef XS_BLEND
#undef XS_LOADX
#undef XS_LOADU
#undef XS_STOREU

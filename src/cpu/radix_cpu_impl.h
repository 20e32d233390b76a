/* One instance of the CPU radix sort, for keys RX_KT (uint32_t or uint64_t, encoded by
 * RX_ENC / RX_DEC from core/key_codec.h) with values RX_VT (RX_HASV 0: keys alone);
 * radix_cpu.c includes this file once per (key, value) width with RX_SUFFIX naming the
 * instance. Every routine here is stable, so all give the one stable order. */

#define RX_CAT_(a, b) a##_##b
#define RX_CAT(a, b) RX_CAT_(a, b)
#define RX(name) RX_CAT(name, RX_SUFFIX)
/* keys per 64-byte line: the unit a write-combining buffer flushes */
#define RX_LINE ((size_t)64 / sizeof(RX_KT))

/* Stable insertion sort of encoded keys: the cheapest sort below RX_INSERTION_MAX. */
static void RX(insertion)(RX_KT *k, RX_VT *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    RX_KT x = k[i];
    RX_VT y = RX_HASV ? v[i] : (RX_VT)0;
    size_t j = i;
    while (j > 0 && k[j - 1] > x) {
      k[j] = k[j - 1];
      if (RX_HASV) v[j] = v[j - 1];
      j--;
    }
    k[j] = x;
    if (RX_HASV) v[j] = y;
  }
}

/* Serial stable LSD sort of n encoded keys on bits [lo, hi), meant for data that fits
 * one core's cache: from (sk, sv) to (dk, dv); the source may be the destination. dk
 * NULL: only the values are wanted (argsort). ak/av and bk/bv are scratch of n; hist
 * holds RX_MAX_DIGITS << RX_LSD_BITS counts. One read counts every digit; digits on which
 * all keys agree are skipped. */
static void RX(lsd)(const RX_KT *sk, const RX_VT *sv, RX_KT *dk, RX_VT *dv, RX_KT *ak,
                    RX_VT *av, RX_KT *bk, RX_VT *bv, size_t n, int lo, int hi, size_t *hist) {
  rx_plan plan = rx_plan_digits(lo, hi, n <= RX_SMALL_DIGIT_N ? 8 : RX_LSD_BITS);
  if (n < RX_INSERTION_MAX || plan.m == 0) {
    RX_KT *ok = dk ? dk : ak;
    if (ok != sk) memcpy(ok, sk, n * sizeof(RX_KT));
    if (RX_HASV && dv != sv) memcpy(dv, sv, n * sizeof(RX_VT));
    if (plan.m) RX(insertion)(ok, dv, n);
    return;
  }
  for (int j = 0; j < plan.m; j++) memset(hist + ((size_t)j << RX_LSD_BITS), 0,
                                          sizeof(size_t) << plan.width[j]);
  for (size_t i = 0; i < n; i++) {
    RX_KT x = sk[i];
    for (int j = 0; j < plan.m; j++)
      hist[((size_t)j << RX_LSD_BITS) + ((x >> plan.shift[j]) & ((1u << plan.width[j]) - 1))]++;
  }
  int live[RX_MAX_DIGITS], m = 0; /* the digits on which the keys differ */
  for (int j = 0; j < plan.m; j++) {
    size_t *c = hist + ((size_t)j << RX_LSD_BITS);
    if (c[(sk[0] >> plan.shift[j]) & ((1u << plan.width[j]) - 1)] == n) continue;
    size_t sum = 0;
    for (size_t b = 0; b < ((size_t)1 << plan.width[j]); b++) {
      size_t t = c[b];
      c[b] = sum;
      sum += t;
    }
    live[m++] = j;
  }
  const RX_KT *ik = sk;
  const RX_VT *iv = sv;
  if (m == 0) {
    RX_KT *ok = dk ? dk : ak;
    if (ok != ik) memcpy(ok, ik, n * sizeof(RX_KT));
    if (RX_HASV && dv != iv) memcpy(dv, iv, n * sizeof(RX_VT));
    return;
  }
  for (int p = 0; p < m; p++) {
    int j = live[p], last = p == m - 1;
    RX_KT *ok = (p & 1) ? bk : ak; /* the buffer that is not the input */
    RX_VT *ov = (p & 1) ? bv : av;
    /* the last pass writes the destination, unless that is its own input (one pass,
       in place): then it goes through the buffer and is copied */
    int direct = last && !(p == 0 && ((dk && dk == ik) || (RX_HASV && dv == iv)));
    if (direct) {
      if (dk) ok = dk;
      ov = dv;
    }
    size_t *c = hist + ((size_t)j << RX_LSD_BITS);
    const int sh = plan.shift[j];
    const RX_KT mask = (RX_KT)((1u << plan.width[j]) - 1);
    for (size_t i = 0; i < n; i++) {
      RX_KT x = ik[i];
      size_t q = c[(x >> sh) & mask]++;
      ok[q] = x;
      if (RX_HASV) ov[q] = iv[i];
    }
    if (last && !direct) {
      if (dk) memcpy(dk, ok, n * sizeof(RX_KT));
      if (RX_HASV) memcpy(dv, ov, n * sizeof(RX_VT));
    }
    ik = ok;
    iv = ov;
  }
}

/* Sorts one range in one thread, in place: keys raw (encoded, sorted, decoded here),
 * values moving along. w: this thread's scratch (n <= its capacity). */
static void RX(serial_inplace)(RX_KT *k, RX_VT *v, size_t n, gp_key_class c, int desc,
                               rx_thread *w) {
  if (n <= 1) return;
  for (size_t i = 0; i < n; i++) k[i] = RX_ENC(k[i], c, desc);
  RX(lsd)(k, v, k, v, (RX_KT *)w->ak, (RX_VT *)w->av, (RX_KT *)w->bk, (RX_VT *)w->bv, n,
          0, 8 * (int)sizeof(RX_KT), w->hist);
  for (size_t i = 0; i < n; i++) k[i] = RX_DEC(k[i], c, desc);
}

/* One parallel stable counting pass on the digit at (shift, width): per-thread
 * histograms of contiguous chunks, a prefix over (bucket, thread), and a scatter through
 * per-thread write-combining buffers, so each bucket's destination is written a line at
 * a time. raw_in: source keys are raw (encode them); gen: values are the source indices
 * (argsort), sv unused; dec_out: write raw keys. starts (2^width + 1, may be NULL)
 * receives the buckets' boundaries. Returns 0 without writing anything when every key
 * has the same digit (then starts holds one full bucket). */
static int RX(par_pass)(const RX_KT *sk, const RX_VT *sv, int raw_in, int gen, RX_KT *dk,
                        RX_VT *dv, int dec_out, size_t n, int shift, int width,
                        gp_key_class c, int desc, rx_work *wk, size_t *starts) {
  const size_t nb = (size_t)1 << width;
  const RX_KT mask = (RX_KT)(nb - 1);
  int moved = 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(wk->nthreads)
#endif
  {
    int t = 0, nt = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    nt = omp_get_num_threads();
#endif
    const size_t i0 = n * (size_t)t / (size_t)nt, i1 = n * (size_t)(t + 1) / (size_t)nt;
    size_t *cnt = wk->cnt + ((size_t)t << RX_TOP_MAX);
    memset(cnt, 0, nb * sizeof *cnt);
    for (size_t i = i0; i < i1; i++) {
      RX_KT x = raw_in ? RX_ENC(sk[i], c, desc) : sk[i];
      cnt[(x >> shift) & mask]++;
    }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
    {
      size_t sum = 0;
      for (size_t b = 0; b < nb; b++) {
        if (starts) starts[b] = sum;
        const size_t first = sum;
        for (int u = 0; u < nt; u++) {
          size_t *cu = wk->cnt + ((size_t)u << RX_TOP_MAX) + b;
          size_t x = *cu;
          *cu = sum;
          sum += x;
        }
        if (sum - first == n) moved = 0;
      }
      if (starts) starts[nb] = sum;
    }
    if (moved) {
      rx_thread *w = &wk->threads[t];
      RX_KT *bufk = (RX_KT *)w->wck;
      RX_VT *bufv = (RX_VT *)w->wcv;
      size_t *flushed = w->flushed; /* per bucket: first destination not yet written */
      /* slot of destination index q in its line: lines are 64-byte aligned in memory */
      const size_t base = ((uintptr_t)dk / sizeof(RX_KT)) & (RX_LINE - 1);
      for (size_t b = 0; b < nb; b++) flushed[b] = cnt[b];
      for (size_t i = i0; i < i1; i++) {
        RX_KT x = raw_in ? RX_ENC(sk[i], c, desc) : sk[i];
        size_t b = (x >> shift) & mask, q = cnt[b]++;
        size_t slot = (base + q) & (RX_LINE - 1);
        bufk[b * RX_LINE + slot] = dec_out ? RX_DEC(x, c, desc) : x;
        if (RX_HASV) bufv[b * RX_LINE + slot] = gen ? (RX_VT)i : sv[i];
        if (slot == RX_LINE - 1) { /* the line is complete: write it out */
          size_t f = flushed[b], s0 = slot + 1 - (q + 1 - f);
          memcpy(dk + f, bufk + b * RX_LINE + s0, (q + 1 - f) * sizeof(RX_KT));
          if (RX_HASV) memcpy(dv + f, bufv + b * RX_LINE + s0, (q + 1 - f) * sizeof(RX_VT));
          flushed[b] = q + 1;
        }
      }
      for (size_t b = 0; b < nb; b++) {
        size_t f = flushed[b], q = cnt[b];
        if (q == f) continue;
        size_t s0 = (base + f) & (RX_LINE - 1);
        memcpy(dk + f, bufk + b * RX_LINE + s0, (q - f) * sizeof(RX_KT));
        if (RX_HASV) memcpy(dv + f, bufv + b * RX_LINE + s0, (q - f) * sizeof(RX_VT));
      }
    }
  }
  return moved;
}

/* The bits on which the encoded keys differ (0: all equal), in parallel. */
static RX_KT RX(varying)(const RX_KT *k, size_t n, gp_key_class c, int desc, int nthreads) {
  RX_KT a = (RX_KT)~(RX_KT)0, o = 0;
  long long nn = (long long)n;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) reduction(& : a) reduction(| : o) schedule(static)
#endif
  for (long long i = 0; i < nn; i++) {
    RX_KT x = RX_ENC(k[i], c, desc);
    a &= x;
    o |= x;
  }
  return a ^ o;
}

/* A bucket too large for one core's cache, encoded in (tk, tv): parallel LSD passes on
 * bits [lo, hi), ping-ponging with (uk, uv), ending raw in (dk, dv) (dk NULL: only the
 * values). uk may be dk and uv may be dv: they hold nothing yet. */
static void RX(par_lsd)(RX_KT *tk, RX_VT *tv, RX_KT *uk, RX_VT *uv, RX_KT *dk, RX_VT *dv,
                        size_t n, int lo, int hi, gp_key_class c, int desc, rx_work *wk) {
  rx_plan plan = rx_plan_digits(lo, hi, RX_TOP_MAX);
  RX_KT *ik = tk, *ok = uk;
  RX_VT *iv = tv, *ov = uv;
  for (int j = 0; j < plan.m; j++) {
    if (!RX(par_pass)(ik, iv, 0, 0, ok, ov, 0, n, plan.shift[j], plan.width[j], c, desc,
                      wk, NULL))
      continue;
    RX_KT *x = ik; ik = ok; ok = x;
    RX_VT *y = iv; iv = ov; ov = y;
  }
  long long nn = (long long)n;
#ifdef _OPENMP
#pragma omp parallel for num_threads(wk->nthreads) schedule(static)
#endif
  for (long long i = 0; i < nn; i++) {
    if (dk) dk[i] = RX_DEC(ik[i], c, desc);
    if (RX_HASV && dv != iv) dv[i] = iv[i];
  }
}

/* Sorts n raw keys in parallel: (sk, sv) to (dk, dv), the source possibly the
 * destination; gen: the values are the indices (argsort: sv unused, dk NULL). An MSD
 * pass on the top differing digit (parallel, write-combined) splits the keys, encoded,
 * into (tk, tv) buckets of about RX_BUCKET_KEYS; buckets that fit a core's cache are
 * finished by serial LSD in parallel, larger ones by parallel LSD passes. uk: n keys of
 * scratch for argsort's large buckets (NULL otherwise). */
static void RX(par_sort)(const RX_KT *sk, const RX_VT *sv, int gen, RX_KT *dk, RX_VT *dv,
                         RX_KT *tk, RX_VT *tv, RX_KT *uk, size_t n, gp_key_class c,
                         int desc, rx_work *wk) {
  RX_KT diff = RX(varying)(sk, n, c, desc, wk->nthreads);
  if (diff == 0) { /* all keys equal: the order is the input order */
    long long nn = (long long)n;
#ifdef _OPENMP
#pragma omp parallel for num_threads(wk->nthreads) schedule(static)
#endif
    for (long long i = 0; i < nn; i++) {
      if (dk && dk != sk) dk[i] = sk[i];
      if (RX_HASV && (gen || dv != sv)) dv[i] = gen ? (RX_VT)i : sv[i];
    }
    return;
  }
  int hi = 0, lo = 0;
  while (hi < (int)(8 * sizeof(RX_KT)) && (diff >> hi)) hi++;
  while (!((diff >> lo) & 1)) lo++;
  int width = rx_top_width(n, hi - lo);
  int shift = hi - width;
  size_t *starts = wk->starts;
  RX(par_pass)(sk, sv, 1, gen, tk, tv, 0, n, shift, width, c, desc, wk, starts);
  const long long nb = (long long)1 << width;
#ifdef _OPENMP
#pragma omp parallel for num_threads(wk->nthreads) schedule(dynamic, 1)
#endif
  for (long long b = 0; b < nb; b++) {
    size_t s = starts[b], len = starts[b + 1] - s;
    if (len == 0 || len > RX_CACHE_KEYS) continue;
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    rx_thread *w = &wk->threads[t];
    RX_KT *ok = dk ? dk + s : NULL;
    RX(lsd)(tk + s, RX_HASV ? tv + s : NULL, ok, RX_HASV ? dv + s : NULL, (RX_KT *)w->ak,
            (RX_VT *)w->av, (RX_KT *)w->bk, (RX_VT *)w->bv, len, lo, shift, w->hist);
    if (ok)
      for (size_t i = 0; i < len; i++) ok[i] = RX_DEC(ok[i], c, desc);
  }
  for (long long b = 0; b < nb; b++) {
    size_t s = starts[b], len = starts[b + 1] - s;
    if (len <= RX_CACHE_KEYS) continue;
    RX(par_lsd)(tk + s, RX_HASV ? tv + s : NULL, dk ? dk + s : uk + s,
                RX_HASV ? dv + s : NULL, dk ? dk + s : NULL, RX_HASV ? dv + s : NULL, len,
                lo, shift, c, desc, wk);
  }
}

/* Argsort of n <= a thread's capacity raw keys in one thread: tk (n keys of scratch)
 * takes the encoded keys, ix the indices, sorted in place. */
static void RX(serial_argsort)(const RX_KT *k, RX_KT *tk, RX_VT *ix, size_t n,
                               gp_key_class c, int desc, rx_thread *w) {
  for (size_t i = 0; i < n; i++) {
    tk[i] = RX_ENC(k[i], c, desc);
    if (RX_HASV) ix[i] = (RX_VT)i;
  }
  RX(lsd)(tk, ix, NULL, ix, (RX_KT *)w->ak, (RX_VT *)w->av, (RX_KT *)w->bk, (RX_VT *)w->bv,
          n, 0, 8 * (int)sizeof(RX_KT), w->hist);
}

/* Type-erased entry points for radix_cpu.c's dispatch. */
static void RX(serial_any)(void *k, void *v, size_t n, gp_key_class c, int desc,
                           rx_thread *w) {
  RX(serial_inplace)((RX_KT *)k, (RX_VT *)v, n, c, desc, w);
}
static void RX(argsort_any)(const void *k, void *tk, void *ix, size_t n, gp_key_class c,
                            int desc, rx_thread *w) {
  RX(serial_argsort)((const RX_KT *)k, (RX_KT *)tk, (RX_VT *)ix, n, c, desc, w);
}
static void RX(par_any)(const void *sk, const void *sv, int gen, void *dk, void *dv,
                        void *tk, void *tv, void *uk, size_t n, gp_key_class c, int desc,
                        rx_work *wk) {
  RX(par_sort)((const RX_KT *)sk, (const RX_VT *)sv, gen, (RX_KT *)dk, (RX_VT *)dv,
               (RX_KT *)tk, (RX_VT *)tv, (RX_KT *)uk, n, c, desc, wk);
}
static const rx_ops RX(ops) = {RX(serial_any), RX(argsort_any), RX(par_any)};

#undef RX_LINE
#undef RX
#undef RX_CAT
#undef RX_CAT_

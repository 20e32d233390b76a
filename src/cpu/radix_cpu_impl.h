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
                    RX_VT *av, RX_KT *bk, RX_VT *bv, size_t n, int lo, int hi,
                    uint32_t *hist) {
  rx_plan plan = rx_plan_digits(lo, hi, n <= RX_SMALL_DIGIT_N ? 8 : RX_LSD_BITS);
  if (n < RX_INSERTION_MAX || plan.m == 0) {
    RX_KT *ok = dk ? dk : ak;
    if (ok != sk) memcpy(ok, sk, n * sizeof(RX_KT));
    if (RX_HASV && dv != sv) memcpy(dv, sv, n * sizeof(RX_VT));
    if (plan.m) RX(insertion)(ok, dv, n);
    return;
  }
  for (int j = 0; j < plan.m; j++)
    memset(hist + ((size_t)j << RX_LSD_BITS), 0, sizeof(uint32_t) << plan.width[j]);
  for (size_t i = 0; i < n; i++) {
    RX_KT x = sk[i];
    for (int j = 0; j < plan.m; j++)
      hist[((size_t)j << RX_LSD_BITS) + ((x >> plan.shift[j]) & ((1u << plan.width[j]) - 1))]++;
  }
  int live[RX_MAX_DIGITS], m = 0; /* the digits on which the keys differ */
  for (int j = 0; j < plan.m; j++) {
    uint32_t *c = hist + ((size_t)j << RX_LSD_BITS);
    if (c[(sk[0] >> plan.shift[j]) & ((1u << plan.width[j]) - 1)] == n) continue;
    uint32_t sum = 0;
    for (size_t b = 0; b < ((size_t)1 << plan.width[j]); b++) {
      uint32_t t = c[b];
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
    uint32_t *c = hist + ((size_t)j << RX_LSD_BITS);
    const int sh = plan.shift[j];
    const RX_KT mask = (RX_KT)((1u << plan.width[j]) - 1);
    for (size_t i = 0; i < n; i++) {
      RX_KT x = ik[i];
      uint32_t q = c[(x >> sh) & mask]++;
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

/* cnt[b] += how many keys of [i0, i1) have digit b; raw: the keys need encoding. */
static void RX(count)(const RX_KT *k, size_t i0, size_t i1, int raw, int shift,
                      RX_KT mask, gp_key_class c, int desc, size_t *cnt) {
  if (raw)
    for (size_t i = i0; i < i1; i++) cnt[(RX_ENC(k[i], c, desc) >> shift) & mask]++;
  else
    for (size_t i = i0; i < i1; i++) cnt[(k[i] >> shift) & mask]++;
}

/* Stable scatter of [i0, i1) by digit, encoded, to (dk, dv) at the cursors cur[b]
 * (advanced), through w's write-combining lines: a bucket's keys gather in a 64-byte
 * line that goes out whole once full, so each destination line is written at once
 * instead of 2^width scattered streams. gen: the values are the source indices. */
static void RX(scatter)(const RX_KT *sk, const RX_VT *sv, int raw, int gen, RX_KT *dk,
                        RX_VT *dv, size_t i0, size_t i1, int shift, size_t nb,
                        const uint16_t *map, gp_key_class c, int desc, size_t *cur,
                        rx_thread *w) {
  /* map (par_mapped): the bucket of each value of the RX_MAP_BITS-bit window at shift */
  const RX_KT mask = map ? (RX_KT)(((size_t)1 << RX_MAP_BITS) - 1) : (RX_KT)(nb - 1);
  RX_KT *bufk = (RX_KT *)w->wck;
  RX_VT *bufv = (RX_VT *)w->wcv;
  size_t *flushed = w->flushed; /* per bucket: first destination not yet written */
  /* slot of destination index q in its line: lines are 64-byte aligned in memory */
  const size_t base = ((uintptr_t)dk / sizeof(RX_KT)) & (RX_LINE - 1);
  for (size_t b = 0; b < nb; b++) flushed[b] = cur[b];
  for (size_t i = i0; i < i1; i++) {
    RX_KT x = raw ? RX_ENC(sk[i], c, desc) : sk[i];
    size_t b = map ? map[(x >> shift) & mask] : (x >> shift) & mask, q = cur[b]++;
    size_t slot = (base + q) & (RX_LINE - 1);
    RX_KT *lk = bufk + b * RX_LINE;
    RX_VT *lv = bufv + b * RX_LINE;
    lk[slot] = x;
    if (RX_HASV) lv[slot] = gen ? (RX_VT)i : sv[i];
    if (slot == RX_LINE - 1) { /* the line is complete: write it out */
      size_t f = flushed[b], len = q + 1 - f;
      if (len == RX_LINE) {
        rx_put_line(dk + f, lk);
        if (RX_HASV) rx_put(dv + f, lv, RX_LINE * sizeof(RX_VT));
      } else { /* the first, partial line of this thread's share of the bucket */
        memcpy(dk + f, lk + RX_LINE - len, len * sizeof(RX_KT));
        if (RX_HASV) memcpy(dv + f, lv + RX_LINE - len, len * sizeof(RX_VT));
      }
      flushed[b] = q + 1;
    }
  }
  for (size_t b = 0; b < nb; b++) {
    size_t f = flushed[b], q = cur[b];
    if (q == f) continue;
    size_t s0 = (base + f) & (RX_LINE - 1);
    memcpy(dk + f, bufk + b * RX_LINE + s0, (q - f) * sizeof(RX_KT));
    if (RX_HASV) memcpy(dv + f, bufv + b * RX_LINE + s0, (q - f) * sizeof(RX_VT));
  }
  rx_put_done();
}

/* The cursors of a parallel scatter, from the per-thread bucket counts of nt threads in
 * wk->cnt (in place): over (bucket, thread), so each thread's share of a bucket follows
 * the earlier threads' and the pass is stable. starts (nb + 1) receives the bucket
 * boundaries. Returns the largest bucket's size. */
static size_t RX(cursors)(rx_work *wk, int nt, size_t nb, size_t *starts) {
  size_t sum = 0, largest = 0;
  for (size_t b = 0; b < nb; b++) {
    starts[b] = sum;
    for (int u = 0; u < nt; u++) {
      size_t *cu = wk->cnt + ((size_t)u << RX_TOP_MAX) + b;
      const size_t x = *cu;
      *cu = sum;
      sum += x;
    }
    if (sum - starts[b] > largest) largest = sum - starts[b];
  }
  starts[nb] = sum;
  return largest;
}

/* One parallel stable counting pass on the digit at (shift, width), from (rk, rv) (raw:
 * keys to encode; gen: values are the indices, rv unused) to (dk, dv) encoded: per-
 * thread histograms of contiguous chunks, a prefix over (bucket, thread), a write-
 * combined scatter. starts (2^width + 1) receives the bucket boundaries. Returns 0,
 * having written nothing, when every key has the same digit. */
static int RX(par_pass)(const RX_KT *rk, const RX_VT *rv, int raw, int gen, RX_KT *dk,
                        RX_VT *dv, size_t n, int shift, int width, gp_key_class c,
                        int desc, rx_work *wk, size_t *starts) {
  const size_t nb = (size_t)1 << width;
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
    if (wk->counted != nt) { /* else par_sort's first read counted this digit */
      memset(cnt, 0, nb * sizeof *cnt);
      RX(count)(rk, i0, i1, raw, shift, (RX_KT)(nb - 1), c, desc, cnt);
    }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
    moved = RX(cursors)(wk, nt, nb, starts) < n; /* (the single's implied barrier) */
    if (moved)
      RX(scatter)(rk, rv, raw, gen, dk, dv, i0, i1, shift, nb, NULL, c, desc, cnt,
                  &wk->threads[t]);
  }
  wk->counted = 0;
  return moved;
}

/* The serial counterpart of par_pass on encoded keys, in w's scratch; write-combined
 * when wc (the destination is out of cache), else a plain scatter. */
static int RX(serial_pass)(const RX_KT *sk, const RX_VT *sv, RX_KT *dk, RX_VT *dv, size_t n,
                           int shift, int width, size_t *starts, rx_thread *w, int wc) {
  const size_t nb = (size_t)1 << width;
  const RX_KT mask = (RX_KT)(nb - 1);
  size_t *cnt = w->cnt;
  memset(cnt, 0, nb * sizeof *cnt);
  RX(count)(sk, 0, n, 0, shift, mask, GP_KEY_UNSIGNED, 0, cnt);
  size_t sum = 0;
  for (size_t b = 0; b < nb; b++) {
    starts[b] = sum;
    size_t x = cnt[b];
    if (x == n) return 0;
    cnt[b] = sum;
    sum += x;
  }
  starts[nb] = sum;
  if (wc) {
    RX(scatter)(sk, sv, 0, 0, dk, dv, 0, n, shift, nb, NULL, GP_KEY_UNSIGNED, 0, cnt, w);
  } else {
    for (size_t i = 0; i < n; i++) {
      RX_KT x = sk[i];
      size_t q = cnt[(x >> shift) & mask]++;
      dk[q] = x;
      if (RX_HASV) dv[q] = sv[i];
    }
  }
  return 1;
}

/* Raw keys into dk (when wanted) from encoded ik, values into dv from iv; either may
 * already be in place. finish is serial on purpose: an OpenMP region, even of one
 * thread, costs more than a small bucket's whole sort; par_finish is for whole arrays. */
static void RX(finish)(const RX_KT *ik, const RX_VT *iv, RX_KT *dk, RX_VT *dv, size_t n,
                       gp_key_class c, int desc) {
  if (dk && (dk != ik || c != GP_KEY_UNSIGNED || desc)) /* else the bits are right */
    for (size_t i = 0; i < n; i++) dk[i] = RX_DEC(ik[i], c, desc);
  if (RX_HASV && dv != iv) memcpy(dv, iv, n * sizeof(RX_VT));
}
static void RX(par_finish)(const RX_KT *ik, const RX_VT *iv, RX_KT *dk, RX_VT *dv, size_t n,
                           gp_key_class c, int desc, int nthreads) {
  const size_t chunk = (size_t)1 << 16;
  const long long nc = (long long)((n + chunk - 1) / chunk);
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
  for (long long j = 0; j < nc; j++) {
    size_t i0 = (size_t)j * chunk, len = n - i0 < chunk ? n - i0 : chunk;
    RX(finish)(ik + i0, RX_HASV ? iv + i0 : NULL, dk ? dk + i0 : NULL, RX_HASV ? dv + i0 : NULL,
               len, c, desc);
  }
}

/* Keys alone: the longest range the vector network sorts (cpu/vsort.h; 0 without one or
 * with values), and that sort of encoded keys in place (their order is the unsigned one). */
static size_t RX(vmax)(void) {
  if (RX_HASV) return 0;
  return sizeof(RX_KT) == 4 ? gp_cpu_vsort32_max() : gp_cpu_vsort64_max();
}
static void RX(vsort)(RX_KT *k, size_t n) {
  if (sizeof(RX_KT) == 4) gp_cpu_vsort32((uint32_t *)(void *)k, n, GP_KEY_UNSIGNED, 0);
  else gp_cpu_vsort64((uint64_t *)(void *)k, n, GP_KEY_UNSIGNED, 0);
}

/* Sorts n encoded keys in (sk, sv) on bits [lo, hi) in one thread, MSD first: keys alone
 * up to RX(vmax) by the vector network (the buckets of a split among them: 65536 random
 * i32 in 2048 buckets of ~32 went through three-pass LSD sorts, 913 us, now 423); a range
 * in cache with at most two LSD digits left, or too short to split, is finished by LSD
 * (insertion when tiny); any other is split on its top digit into (ok, ov) (write-combined when
 * out of cache) and each bucket recursed on, the two buffers trading places. The
 * result, raw, ends in S when d_is_s, else in O (keys only when want_keys). Every split
 * takes at least 3 bits (rx_top_width, rx_split_width), so splits nest at most 64 / 3 <
 * RX_LEVELS deep (rec and par_rec alike). */
static void RX(rec)(RX_KT *sk, RX_VT *sv, RX_KT *ok, RX_VT *ov, int d_is_s, int want_keys,
                    size_t n, int lo, int hi, gp_key_class c, int desc, rx_thread *w,
                    int level) {
  RX_KT *dk = want_keys ? (d_is_s ? sk : ok) : NULL;
  RX_VT *dv = RX_HASV ? (d_is_s ? sv : ov) : NULL;
  const size_t vmax = RX(vmax)();
  for (;;) {
    const int span = hi - lo;
    if (span <= 0) { /* all keys equal: in order already */
      RX(finish)(sk, sv, dk, dv, n, c, desc);
      return;
    }
    if (n <= vmax) { /* keys alone, short: the vector network, in place, then decoded */
      RX(vsort)(sk, n);
      RX(finish)(sk, sv, dk, dv, n, c, desc);
      return;
    }
    if (n < RX_INSERTION_MAX ||
        (n >= RX_LSD_MIN_N && n <= RX_CACHE_KEYS && (n < RX_SPLIT_MIN_N || span <= 2 * RX_LSD_BITS))) {
      RX(lsd)(sk, sv, dk, dv, (RX_KT *)w->ak, (RX_VT *)w->av, (RX_KT *)w->bk,
              (RX_VT *)w->bv, n, lo, hi, w->hist);
      if (dk) RX(finish)(dk, dv, dk, dv, n, c, desc);
      return;
    }
    const int wc = n > RX_CACHE_KEYS;
    const int width = wc ? rx_top_width(n, span, sizeof(RX_KT)) : rx_split_width(n, span);
    const int shift = hi - width;
    size_t *st = w->starts + (size_t)level * (RX_NB + 1);
    if (!RX(serial_pass)(sk, sv, ok, ov, n, shift, width, st, w, wc)) {
      hi = shift; /* every key has this digit: go on below it */
      continue;
    }
    if (shift == lo) { /* that was the last digit: the keys are in order in O */
      RX(finish)(ok, ov, dk, dv, n, c, desc);
      return;
    }
    for (size_t b = 0; b < ((size_t)1 << width); b++) {
      size_t s = st[b], len = st[b + 1] - s;
      if (len >= RX_INSERTION_MAX) {
        RX(rec)(ok + s, RX_HASV ? ov + s : NULL, sk + s, RX_HASV ? sv + s : NULL, !d_is_s,
                want_keys, len, lo, shift, c, desc, w, level + 1);
      } else if (len) { /* most buckets of an in-cache split: sorted here, no call */
        RX(insertion)(ok + s, RX_HASV ? ov + s : NULL, len);
        RX(finish)(ok + s, RX_HASV ? ov + s : NULL, dk ? dk + s : NULL,
                   RX_HASV ? dv + s : NULL, len, c, desc);
      }
    }
    return;
  }
}

/* Sorts one range in one thread, in place: keys raw (encoded, sorted, decoded), values
 * moving along. w: this thread's scratch (n <= its capacity). */
static void RX(serial_inplace)(RX_KT *k, RX_VT *v, size_t n, gp_key_class c, int desc,
                               rx_thread *w) {
  if (n <= 1) return;
  for (size_t i = 0; i < n; i++) k[i] = RX_ENC(k[i], c, desc);
  RX(rec)(k, v, (RX_KT *)w->ck, (RX_VT *)w->cv, 1, 1, n, 0, 8 * (int)sizeof(RX_KT), c,
          desc, w, 0);
}

static void RX(par_rec)(const RX_KT *rk, const RX_VT *rv, int raw, int gen, RX_KT *sk,
                        RX_VT *sv, RX_KT *ok, RX_VT *ov, int d_is_s, int want_keys,
                        size_t n, int lo, int hi, gp_key_class c, int desc, rx_work *wk,
                        int level); /* par_rec and par_buckets call each other */

/* Sorts the nb buckets that a parallel pass of the n keys at this level left in O
 * (bounds st, nb + 1) to the result's side, each on bits [lo, hi), or [lo, top[b]) when
 * top is not NULL (par_mapped: each bucket has its own): most side by side, each in one
 * thread (rec), the few that hold a large share of the keys one after the other with all
 * threads (par_rec, a level deeper). d_is_s and want_keys as par_rec's. */
static void RX(par_buckets)(RX_KT *sk, RX_VT *sv, RX_KT *ok, RX_VT *ov, int d_is_s,
                            int want_keys, size_t n, const size_t *st, size_t nb, int lo,
                            int hi, const int *top, gp_key_class c, int desc, rx_work *wk,
                            int level) {
  const size_t giant = n / (2 * (size_t)wk->nthreads);
  const long long nbl = (long long)nb;
#ifdef _OPENMP
#pragma omp parallel for num_threads(wk->nthreads) schedule(dynamic, 1)
#endif
  for (long long b = 0; b < nbl; b++) {
    size_t s = st[b], len = st[b + 1] - s;
    if (len == 0 || (len > giant && len > RX_CACHE_KEYS)) continue;
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    RX(rec)(ok + s, RX_HASV ? ov + s : NULL, sk + s, RX_HASV ? sv + s : NULL, !d_is_s,
            want_keys, len, lo, top ? top[b] : hi, c, desc, &wk->threads[t], 0);
  }
  for (long long b = 0; b < nbl; b++) {
    size_t s = st[b], len = st[b + 1] - s;
    if (len > giant && len > RX_CACHE_KEYS)
      RX(par_rec)(ok + s, RX_HASV ? ov + s : NULL, 0, 0, ok + s, RX_HASV ? ov + s : NULL,
                  sk + s, RX_HASV ? sv + s : NULL, !d_is_s, want_keys, len, lo,
                  top ? top[b] : hi, c, desc, wk, level + 1);
  }
}

/* The parallel counterpart of rec: a parallel pass on the top digit from (rk, rv)
 * (raw / gen as in par_pass) into O, then the buckets (par_buckets). S is the writable
 * buffer of the result's side (rk may be S or the caller's keys). The top digit must
 * not be trivial when rk is not S. */
static void RX(par_rec)(const RX_KT *rk, const RX_VT *rv, int raw, int gen, RX_KT *sk,
                        RX_VT *sv, RX_KT *ok, RX_VT *ov, int d_is_s, int want_keys,
                        size_t n, int lo, int hi, gp_key_class c, int desc, rx_work *wk,
                        int level) {
  int width, shift;
  size_t *st = wk->starts + (size_t)level * (RX_NB + 1);
  for (;;) {
    width = rx_top_width(n, hi - lo, sizeof(RX_KT));
    shift = hi - width;
    if (RX(par_pass)(rk, rv, raw, gen, ok, ov, n, shift, width, c, desc, wk, st)) break;
    hi = shift;
    if (hi == lo) {
      RX(par_finish)(sk, sv, want_keys ? (d_is_s ? sk : ok) : NULL, d_is_s ? sv : ov, n, c,
                     desc, wk->nthreads);
      return;
    }
  }
  if (shift == lo) { /* that was the last digit: the keys are in order in O */
    RX(par_finish)(ok, ov, want_keys ? (d_is_s ? sk : ok) : NULL, d_is_s ? sv : ov, n, c,
                   desc, wk->nthreads);
    return;
  }
  RX(par_buckets)(sk, sv, ok, ov, d_is_s, want_keys, n, st, (size_t)1 << width, lo, shift,
                  NULL, c, desc, wk, level);
}

/* The first pass of a large sort on skewed keys (floats: most keys share a few
 * exponents, so the top digit of par_rec leaves buckets far larger than a cache and
 * every key would move twice): a count of the RX_MAP_BITS-bit window below the highest
 * differing bit hi (varying's counts in wk->win when that window is the top one, else a
 * read of the keys here), then a map of the window's values onto 2^wt buckets of near
 * equal size (adjacent values together, so the buckets stay in key order and the pass is
 * a stable counting sort like any other), a write-combined scatter through the map, and
 * each bucket finished on the bits below the highest bit on which its keys can differ.
 * Arguments as par_rec at level 0 with raw keys. Returns 0, having done nothing, when
 * its scratch cannot be had. */
static int RX(par_mapped)(const RX_KT *rk, const RX_VT *rv, int gen, RX_KT *sk, RX_VT *sv,
                          RX_KT *ok, RX_VT *ov, int want_keys, size_t n, int lo, int hi,
                          int wt, gp_key_class c, int desc, rx_work *wk) {
  const int wbits = hi < RX_MAP_BITS ? hi : RX_MAP_BITS, shift = hi - wbits;
  const size_t nv = (size_t)1 << wbits, nb = (size_t)1 << wt;
  const RX_KT vmask = (RX_KT)(nv - 1);
  const int nt = wk->nthreads;
  uint32_t *cnt16 = wk->win;
  uint16_t *map = (uint16_t *)malloc(nv * sizeof(uint16_t));
  int *top = (int *)malloc(nb * sizeof(int));
  if (!map || !top) {
    free(map);
    free(top);
    return 0;
  }
  size_t *st = wk->starts;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt)
#endif
  {
    int t = 0, team = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    team = omp_get_num_threads();
#endif
    const size_t i0 = n * (size_t)t / (size_t)team, i1 = n * (size_t)(t + 1) / (size_t)team;
    uint32_t *h = cnt16 + (size_t)t * nv;
    if (wk->win_top != team) { /* else varying counted this window */
      memset(h, 0, nv * sizeof *h);
      for (size_t i = i0; i < i1; i++) h[(RX_ENC(rk[i], c, desc) >> shift) & vmask]++;
    }
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
    { /* the map: value v goes to bucket floor(keys below v * nb / n); per bucket, the
       * highest bit (+1) on which its keys can differ: they share every bit above the
       * highest one in which its smallest and largest present values differ */
      size_t below = 0, vfirst = 0, vlast = 0, cur = (size_t)-1;
      for (size_t v = 0; v <= nv; v++) {
        size_t tv = 0;
        if (v < nv) {
          for (int u = 0; u < team; u++) tv += cnt16[(size_t)u * nv + v];
          const size_t b = (size_t)((double)below * (double)nb / (double)n);
          map[v] = (uint16_t)(b < nb ? b : nb - 1);
          below += tv;
          if (!tv) continue;
        }
        if (v == nv || map[v] != cur) { /* the bucket before closes */
          if (cur != (size_t)-1) {
            const RX_KT d = (RX_KT)(vfirst ^ vlast);
            int k = 0;
            while (k < wbits && (d >> k)) k++;
            top[cur] = shift + k;
          }
          if (v == nv) break;
          cur = map[v];
          vfirst = v;
        }
        vlast = v;
      }
      /* per-thread bucket counts, then the cursors */
      for (int u = 0; u < team; u++) {
        size_t *cb = wk->cnt + ((size_t)u << RX_TOP_MAX);
        memset(cb, 0, nb * sizeof *cb);
        const uint32_t *hu = cnt16 + (size_t)u * nv;
        for (size_t v = 0; v < nv; v++) cb[map[v]] += hu[v];
      }
      RX(cursors)(wk, team, nb, st);
    } /* (the single's implied barrier) */
    RX(scatter)(rk, rv, 1, gen, ok, ov, i0, i1, shift, nb, map, c, desc,
                wk->cnt + ((size_t)t << RX_TOP_MAX), &wk->threads[t]);
  }
  free(map);
  wk->counted = wk->win_top = 0;
  RX(par_buckets)(sk, sv, ok, ov, 1, want_keys, n, st, nb, lo, hi, top, c, desc, wk, 0);
  free(top);
  return 1;
}

/* The bits on which the encoded keys differ (0: all equal), in parallel; the same read
 * counts each thread's chunk on the digit a par_pass over all the bits would take first
 * (width wt at the top), which that pass then reuses (wk->counted). From RX_MAP_MIN_N
 * keys (where par_mapped may run) to 2^32 (the limit of its 32-bit counts) it counts the
 * top RX_MAP_BITS-bit window into wk->win instead, and the digit's counts are the
 * window's sums: par_mapped then reuses the window (wk->win_top), so skewed keys too are
 * read once before the first scatter. Below RX_MAP_MIN_N keys nothing would reuse the
 * window, and clearing and summing its 256 KiB a thread would be pure cost. */
static RX_KT RX(varying)(const RX_KT *k, size_t n, gp_key_class c, int desc, int wt,
                         rx_work *wk) {
  const int bits = 8 * (int)sizeof(RX_KT), g = RX_MAP_BITS - wt;
  const int win = n >= RX_MAP_MIN_N && n < ((size_t)1 << 32);
  RX_KT a = (RX_KT)~(RX_KT)0, o = 0;
  int team = 1;
#ifdef _OPENMP
#pragma omp parallel num_threads(wk->nthreads) reduction(& : a) reduction(| : o)
#endif
  {
    int t = 0, nt = 1;
#ifdef _OPENMP
    t = omp_get_thread_num();
    nt = omp_get_num_threads();
#endif
    const size_t i0 = n * (size_t)t / (size_t)nt, i1 = n * (size_t)(t + 1) / (size_t)nt;
    size_t *cnt = wk->cnt + ((size_t)t << RX_TOP_MAX);
    if (win) {
      uint32_t *h = wk->win + ((size_t)t << RX_MAP_BITS);
      memset(h, 0, sizeof(uint32_t) << RX_MAP_BITS);
      for (size_t i = i0; i < i1; i++) {
        RX_KT x = RX_ENC(k[i], c, desc);
        a &= x;
        o |= x;
        h[x >> (bits - RX_MAP_BITS)]++;
      }
      for (size_t b = 0; b < ((size_t)1 << wt); b++) {
        size_t s = 0;
        for (size_t v = b << g; v < (b + 1) << g; v++) s += h[v];
        cnt[b] = s;
      }
    } else {
      const RX_KT mask = (RX_KT)(((size_t)1 << wt) - 1);
      memset(cnt, 0, ((size_t)1 << wt) * sizeof *cnt);
      for (size_t i = i0; i < i1; i++) {
        RX_KT x = RX_ENC(k[i], c, desc);
        a &= x;
        o |= x;
        cnt[(x >> (bits - wt)) & mask]++;
      }
    }
    if (t == 0) team = nt;
  }
  wk->counted = team;
  wk->win_top = win ? team : 0;
  return a ^ o;
}

/* The largest bucket of the top digit that varying counted (wk->counted threads). */
static size_t RX(top_bucket)(const rx_work *wk, size_t nb) {
  size_t m = 0;
  for (size_t b = 0; b < nb; b++) {
    size_t x = 0;
    for (int t = 0; t < wk->counted; t++) x += wk->cnt[((size_t)t << RX_TOP_MAX) + b];
    if (x > m) m = x;
  }
  return m;
}

/* Sorts n raw keys in parallel: (sk, sv) to (dk, dv), the source possibly the
 * destination; gen: the values are the indices (argsort: sv unused, dk NULL, uk n keys
 * of scratch). (tk, tv): n keys and values of scratch. */
static void RX(par_sort)(const RX_KT *sk, const RX_VT *sv, int gen, RX_KT *dk, RX_VT *dv,
                         RX_KT *tk, RX_VT *tv, RX_KT *uk, size_t n, gp_key_class c,
                         int desc, rx_work *wk) {
  const int bits = 8 * (int)sizeof(RX_KT), wt = rx_top_width(n, bits, sizeof(RX_KT));
  RX_KT diff = RX(varying)(sk, n, c, desc, wt, wk);
  if (diff == 0) { /* all keys equal: the order is the input order */
    wk->counted = wk->win_top = 0;
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
  const int wr = rx_top_width(n, hi - lo, sizeof(RX_KT));
  if (hi != bits || wr != wt) wk->counted = 0; /* another digit */
  if (hi != bits) wk->win_top = 0;              /* another window */
  /* skewed keys (or a top digit not yet counted) take the mapped first pass */
  if (n >= RX_MAP_MIN_N && hi - lo > wr && n < ((size_t)1 << 32) &&
      (!wk->counted || RX(top_bucket)(wk, (size_t)1 << wt) > RX_CACHE_KEYS) &&
      RX(par_mapped)(sk, sv, gen, dk ? dk : uk, dv, tk, tv, dk != NULL, n, lo, hi, wr, c,
                     desc, wk))
    return;
  /* the top digit holds the highest differing bit: it moves the keys */
  RX(par_rec)(sk, sv, 1, gen, dk ? dk : uk, dv, tk, tv, 1, dk != NULL, n, lo, hi, c, desc,
              wk, 0);
}

/* Argsort of n <= a thread's capacity raw keys in one thread: tk (n keys of scratch)
 * takes the encoded keys, ix the indices, sorted in place. */
static void RX(serial_argsort)(const RX_KT *k, RX_KT *tk, RX_VT *ix, size_t n,
                               gp_key_class c, int desc, rx_thread *w) {
  for (size_t i = 0; i < n; i++) {
    tk[i] = RX_ENC(k[i], c, desc);
    if (RX_HASV) ix[i] = (RX_VT)i;
  }
  RX(rec)(tk, ix, (RX_KT *)w->ck, (RX_VT *)w->cv, 1, 0, n, 0, 8 * (int)sizeof(RX_KT), c,
          desc, w, 0);
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

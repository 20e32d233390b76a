/* One width of the vectorized quicksort (cpu/vqsort.c includes this file once per key
 * width). The instance supplies QW(name) (a suffix), QW_KT (the key), QW_L (keys a
 * 64-byte vector), QW_MASK (a lane mask), QW_CMPLT(valid, x, y) (the valid lanes where
 * x < y, unsigned), QW_COMPRESS(m, x) (lanes m of x, packed low), QW_MSTORE / QW_MLOADZ /
 * QW_SET1 (the intrinsics), QW_VSORT(k, n) (the bitonic network, n <= QW_BASE) and
 * QW_BASE (the longest range left to it). Keys here are encoded (core/key_codec.h): their
 * order is the unsigned one. */

/* the low c lanes */
static inline QW_MASK QW(low)(unsigned c) { return (QW_MASK)(((uint64_t)1 << c) - 1); }

/* The valid lanes of v below the pivot go to k[*lw ..), the others to .. k[*rw). */
GP_CPU_AVX512 static inline void QW(put)(QW_KT *k, __m512i v, __m512i vp, QW_MASK valid,
                                         size_t *lw, size_t *rw) {
  const QW_MASK lt = QW_CMPLT(valid, v, vp), ge = (QW_MASK)(valid & ~lt);
  const unsigned nl = (unsigned)__builtin_popcount(lt), ng = (unsigned)__builtin_popcount(ge);
  QW_MSTORE(k + *lw, QW(low)(nl), QW_COMPRESS(lt, v));
  *lw += nl;
  *rw -= ng;
  QW_MSTORE(k + *rw, QW(low)(ng), QW_COMPRESS(ge, v));
}

/* Partitions k[0 .. n), n >= 4 QW_L, in place: the keys below p first; returns their
 * count. Two vectors from each end are held in registers first; each step then reads
 * two vectors from the end with less room written back (so neither side's writes,
 * exact by masked stores, reach keys not yet read), the tail by a masked load, and the
 * held vectors last, when every key left is in registers. */
GP_CPU_AVX512 static size_t QW(partition)(QW_KT *k, size_t n, QW_KT p) {
  const __m512i vp = QW_SET1(p);
  const QW_MASK all = QW(low)(QW_L);
  const __m512i l0 = _mm512_loadu_si512(k), l1 = _mm512_loadu_si512(k + QW_L);
  const __m512i r0 = _mm512_loadu_si512(k + n - 2 * QW_L), r1 = _mm512_loadu_si512(k + n - QW_L);
  size_t l = 2 * QW_L, r = n - 2 * QW_L, lw = 0, rw = n;
  while (r - l >= 2 * QW_L) {
    __m512i a, b;
    if (l - lw <= rw - r) {
      a = _mm512_loadu_si512(k + l), b = _mm512_loadu_si512(k + l + QW_L);
      l += 2 * QW_L;
    } else {
      r -= 2 * QW_L;
      a = _mm512_loadu_si512(k + r), b = _mm512_loadu_si512(k + r + QW_L);
    }
    QW(put)(k, a, vp, all, &lw, &rw);
    QW(put)(k, b, vp, all, &lw, &rw);
  }
  if (r - l >= QW_L) {
    const __m512i a = _mm512_loadu_si512(k + l);
    l += QW_L;
    if (r > l) {
      const QW_MASK m = QW(low)((unsigned)(r - l));
      const __m512i t = QW_MLOADZ(m, k + l);
      QW(put)(k, a, vp, all, &lw, &rw);
      QW(put)(k, t, vp, m, &lw, &rw);
    } else {
      QW(put)(k, a, vp, all, &lw, &rw);
    }
  } else if (r > l) {
    const QW_MASK m = QW(low)((unsigned)(r - l));
    QW(put)(k, QW_MLOADZ(m, k + l), vp, m, &lw, &rw);
  }
  QW(put)(k, l0, vp, all, &lw, &rw);
  QW(put)(k, l1, vp, all, &lw, &rw);
  QW(put)(k, r0, vp, all, &lw, &rw);
  QW(put)(k, r1, vp, all, &lw, &rw);
  return lw;
}

/* The pivot: the median of 16 to 64 keys spread over the range (n > QW_BASE >= 64); a
 * short range's split costs less than sorting 64 samples. */
static QW_KT QW(pivot)(const QW_KT *k, size_t n) {
  QW_KT s[64];
  const size_t m = n >= 8192 ? 64 : n >= 1024 ? 32 : 16, step = n / m;
  for (size_t i = 0; i < m; i++) s[i] = k[i * step + step / 2];
  QW_VSORT(s, m);
  return s[m / 2];
}

/* Heapsort: the fallback when partitions keep coming out lopsided (introsort's bound) */
static void QW(sift)(QW_KT *k, size_t i, size_t n) {
  const QW_KT x = k[i];
  for (size_t c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && k[c + 1] > k[c]) c++;
    if (k[c] <= x) break;
    k[i] = k[c];
  }
  k[i] = x;
}
static void QW(heapsort)(QW_KT *k, size_t n) {
  for (size_t i = n / 2; i-- > 0;) QW(sift)(k, i, n);
  for (size_t e = n; e-- > 1;) {
    const QW_KT t = k[0];
    k[0] = k[e];
    k[e] = t;
    QW(sift)(k, 0, e);
  }
}

/* One step: partitions k[0 .. n) (n > QW_BASE) and returns where the upper part starts
 * (*lo_n: the length of the lower part to sort; 0 when it needs none). A pivot that is
 * the least key (nothing below it) is moved past the keys equal to it, which are then in
 * place; all keys equal: *lo_n = 0 and n returned. */
static size_t QW(split)(QW_KT *k, size_t n, size_t *lo_n) {
  const QW_KT p = QW(pivot)(k, n);
  size_t nl = QW(partition)(k, n, p);
  if (nl) {
    *lo_n = nl;
    return nl;
  }
  *lo_n = 0;
  if (p == (QW_KT)~(QW_KT)0) return n; /* every key >= the largest: all equal */
  return QW(partition)(k, n, (QW_KT)(p + 1)); /* the keys equal to p, first */
}

/* Sorts k[0 .. n) in this thread; depth: the splits left before heapsort. */
static void QW(qs)(QW_KT *k, size_t n, int depth) {
  while (n > QW_BASE) {
    if (depth-- == 0) {
      QW(heapsort)(k, n);
      return;
    }
    size_t nl;
    const size_t m = QW(split)(k, n, &nl);
    if (nl < n - m) { /* recurse on the smaller part, loop on the larger */
      if (nl > 1) QW(qs)(k, nl, depth);
      k += m, n -= m;
    } else {
      if (n - m > 1) QW(qs)(k + m, n - m, depth);
      n = nl;
    }
  }
  if (n > 1) QW_VSORT(k, n);
}

/* The same with OpenMP tasks for the parts of at least QS_TASK_MIN keys (inside a
 * parallel region's single construct). */
static void QW(qs_tasks)(QW_KT *k, size_t n, int depth) {
  while (n >= QS_TASK_MIN && depth > 0) {
    depth--;
    size_t nl;
    const size_t m = QW(split)(k, n, &nl);
    QW_KT *hk = k + m;
    const size_t hn = n - m;
#ifdef _OPENMP
#pragma omp task firstprivate(hk, hn, depth)
#endif
    QW(qs_tasks)(hk, hn, depth);
    n = nl;
  }
  QW(qs)(k, n, depth);
}

/* Encodes n raw keys in place (and decodes: dec), vectorized in AVX-512 */
GP_CPU_AVX512 static void QW(code)(QW_KT *k, size_t n, gp_key_class c, int desc, int dec) {
  const gp_key_code q = gp_key_code_of(c, desc, sizeof(QW_KT) == 8);
  const QW_KT a = (QW_KT)q.a, b = (QW_KT)q.b;
  const int sh = 8 * (int)sizeof(QW_KT) - 1;
  if (dec)
    for (size_t i = 0; i < n; i++) {
      const QW_KT x = k[i] ^ b;
      k[i] = x ^ (((QW_KT)0 - (x >> sh)) & a);
    }
  else
    for (size_t i = 0; i < n; i++) k[i] = k[i] ^ (((QW_KT)0 - (k[i] >> sh)) & a) ^ b;
}

/* depth < 0: the introsort bound, 2 log2(n) + 4 splits before heapsort */
static void QW(sort)(QW_KT *k, size_t n, gp_key_class c, int desc, int nthreads, int depth) {
  if (depth < 0) {
    depth = 4;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
  }
  const int coded = c != GP_KEY_UNSIGNED || desc; /* else the bits are the order */
  if (coded) QW(code)(k, n, c, desc, 0);
  if (nthreads > 1 && n >= 2 * QS_TASK_MIN) {
#ifdef _OPENMP
#pragma omp parallel num_threads(nthreads)
#pragma omp single
#endif
    QW(qs_tasks)(k, n, depth);
  } else {
    QW(qs)(k, n, depth);
  }
  if (coded) QW(code)(k, n, c, desc, 1);
}

#undef QW
#undef QW_KT
#undef QW_L
#undef QW_MASK
#undef QW_CMPLT
#undef QW_COMPRESS
#undef QW_MSTORE
#undef QW_MLOADZ
#undef QW_SET1
#undef QW_VSORT
#undef QW_BASE

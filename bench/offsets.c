/* Segment offsets for the benchmarks (bench/offsets.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#include "offsets.h"

#include <stdlib.h>
#include <string.h>

const char *gpb_off_names[GPB_OFF_KINDS] = {"uniform", "powerlaw", "tiny", "one", "large", "mix"};

void gpb_print_offset_kinds(FILE *f, int indent) {
  static const char *lines[] = {
      "uniform (lengths 1..2048), powerlaw (mostly 1..8, 5% 9..4096, 0.03% of",
      "2^20), tiny (2^20 segments of 0..31), one (a single segment), large",
      "(8192..32768), mix (large, 0.5% of 2^20)"};
  for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) fprintf(f, "%*s%s\n", indent, "", lines[i]);
}

int gpb_parse_offset_kinds(const char *suite, const char *list, int *kinds, int *nk) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  *nk = 0;
  for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int k = 0;
    while (k < GPB_OFF_KINDS && strcmp(tok, gpb_off_names[k]) != 0) k++;
    if (k == GPB_OFF_KINDS || *nk == GPB_OFF_KINDS) {
      fprintf(stderr, "gpuprims bench %s: unknown --offsets kind '%s': use uniform, powerlaw, "
                      "tiny, one, large or mix\n", suite, tok);
      return 1;
    }
    kinds[(*nk)++] = k;
  }
  return 0;
}

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

size_t gpb_make_offsets(int kind, size_t n, uint64_t **out) {
  size_t cap = 1024, nseg = 0;
  uint64_t x = 0x0FF5E7 + (uint64_t)kind, total = 0;
  uint64_t *o = (uint64_t *)malloc(cap * 8);
  while (o) {
    o[nseg] = total;
    if (total >= n || (kind == GPB_OFF_TINY && nseg == ((size_t)1 << 20))) break;
    uint64_t r = splitmix(&x), sz;
    if (kind == GPB_OFF_ONE) sz = n;
    else if (kind == GPB_OFF_UNIFORM) sz = 1 + r % 2048;
    else if (kind == GPB_OFF_TINY) sz = r % 32;
    else if (kind == GPB_OFF_LARGE) sz = 8192 + r % 24577;
    else if (kind == GPB_OFF_MIX) sz = r % 200 == 0 ? (1u << 20) : 8192 + (r >> 8) % 24577;
    else sz = r % 10000 < 3 ? (1u << 20) : r % 10000 < 500 ? 9 + (r >> 20) % 4088 : 1 + (r >> 20) % 8;
    if (sz > n - total) sz = n - total;
    total += sz;
    if (++nseg + 1 > cap) {
      uint64_t *p = (uint64_t *)realloc(o, (cap *= 2) * 8);
      if (!p) free(o);
      o = p;
    }
  }
  *out = o;
  return nseg;
}

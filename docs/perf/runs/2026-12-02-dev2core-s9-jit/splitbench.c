/* GPU half of the split-JIT prototype (issue 13), for a machine with a GPU; written in
 * the ninth session, NOT RUN yet (no device time was left). For one generated source
 * (dump.c) it builds the kernel both ways, today's whole compile and the split one
 * (split.py's skeleton and f, each -rdc, linked by nvJitLink), loads both CUBINs, runs
 * each on the same trapezoid plan as gp_integrate (256 threads, grid = min(tiles, 1024))
 * and prints both results' bits and the median of CUDA-event times over reps:
 *   splitbench FULL.cu SKEL.cu F.cu ARCH N [REPS]     e.g. ... sm_90 268435456 50
 * build: gcc -O2 -o splitbench splitbench.c -I/usr/local/cuda/include \
 *        -L/usr/local/cuda/lib64 -lnvrtc -lnvJitLink -lcudart */
#include <cuda_runtime.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static char *rd(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f) { perror(p); exit(1); }
  fseek(f, 0, SEEK_END);
  long m = ftell(f);
  rewind(f);
  char *s = malloc((size_t)m + 1);
  if (fread(s, 1, (size_t)m, f) != (size_t)m) exit(1);
  s[m] = 0;
  fclose(f);
  return s;
}

static char *comp(const char *src, const char *arch, int rdc, size_t *sz) {
  char archopt[64];
  snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
  const char *o[] = {archopt, "--std=c++17", "--fmad=false", "--prec-div=true", "--prec-sqrt=true",
                     "--ftz=false", "-minimal", "-rdc=true"};
  nvrtcProgram p;
  nvrtcCreateProgram(&p, src, "k.cu", 0, NULL, NULL);
  if (nvrtcCompileProgram(p, rdc ? 8 : 7, o)) {
    size_t ls;
    nvrtcGetProgramLogSize(p, &ls);
    char *l = malloc(ls);
    nvrtcGetProgramLog(p, l);
    fprintf(stderr, "%s\n", l);
    exit(1);
  }
  nvrtcGetCUBINSize(p, sz);
  char *b = malloc(*sz);
  nvrtcGetCUBIN(p, b);
  nvrtcDestroyProgram(&p);
  return b;
}

static int cmpd(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* median ms of reps launches; *res the result of the last */
static double run(cudaKernel_t k, uint64_t n, int reps, double *res) {
  const double a = 0.0, b = 3.141592653589793, h = (b - a) / (double)n;
  unsigned long long m = n - 1, tiles = (m + 8191) / 8192;
  unsigned grid = tiles < 1024 ? (unsigned)(tiles ? tiles : 1) : 1024;
  double *partials, *out;
  unsigned *counter;
  CK(cudaMalloc((void **)&partials, 1024 * sizeof(double)));
  CK(cudaMalloc((void **)&out, sizeof(double)));
  CK(cudaMalloc((void **)&counter, sizeof(unsigned)));
  CK(cudaMemset(counter, 0, sizeof(unsigned)));
  void *args[] = {(void *)&a, (void *)&b, (void *)&h, &m, &tiles, &partials, &counter, &out};
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  double *t = malloc(sizeof(double) * (size_t)reps);
  const dim3 g3 = {grid, 1, 1}, b3 = {256, 1, 1};
  for (int r = -2; r < reps; r++) {
    CK(cudaEventRecord(e0, 0));
    CK(cudaLaunchKernel((const void *)k, g3, b3, args, 0, 0));
    CK(cudaEventRecord(e1, 0));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (r >= 0) t[r] = ms;
  }
  CK(cudaMemcpy(res, out, sizeof(double), cudaMemcpyDeviceToHost));
  qsort(t, (size_t)reps, sizeof(double), cmpd);
  const double med = t[reps / 2];
  free(t);
  cudaFree(partials);
  cudaFree(out);
  cudaFree(counter);
  return med;
}

static cudaKernel_t load(const void *img) {
  cudaLibrary_t l;
  cudaKernel_t k;
  CK(cudaLibraryLoadData(&l, img, NULL, NULL, 0, NULL, NULL, 0));
  CK(cudaLibraryGetKernel(&k, l, "gp_integrate_kernel"));
  return k;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s FULL.cu SKEL.cu F.cu ARCH N [REPS]\n", argv[0]);
    return 2;
  }
  const char *arch = argv[4];
  const uint64_t n = strtoull(argv[5], NULL, 0);
  const int reps = argc > 6 ? atoi(argv[6]) : 50;
  size_t ws, ks, fs, ls;
  char *whole = comp(rd(argv[1]), arch, 0, &ws);
  char *skel = comp(rd(argv[2]), arch, 1, &ks);
  char *f = comp(rd(argv[3]), arch, 1, &fs);
  char larch[64];
  snprintf(larch, sizeof larch, "-arch=%s", arch);
  const char *lo[] = {larch};
  nvJitLinkHandle h;
  if (nvJitLinkCreate(&h, 1, lo) || nvJitLinkAddData(h, NVJITLINK_INPUT_CUBIN, skel, ks, "skel") ||
      nvJitLinkAddData(h, NVJITLINK_INPUT_CUBIN, f, fs, "f") || nvJitLinkComplete(h)) {
    fprintf(stderr, "nvJitLink failed\n");
    return 1;
  }
  nvJitLinkGetLinkedCubinSize(h, &ls);
  char *linked = malloc(ls);
  nvJitLinkGetLinkedCubin(h, linked);
  double rw, rs;
  const double tw = run(load(whole), n, reps, &rw);
  const double ts = run(load(linked), n, reps, &rs);
  uint64_t bw, bs;
  memcpy(&bw, &rw, 8);
  memcpy(&bs, &rs, 8);
  printf("n=%llu whole %.4f ms (%.17g, %016llx) split %.4f ms (%.17g, %016llx) split/whole %.3f\n",
         (unsigned long long)n, tw, rw, (unsigned long long)bw, ts, rs, (unsigned long long)bs, ts / tw);
  return 0;
}

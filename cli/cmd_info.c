/* `gpuprims info`: the version, the backend in use (and why), the device, its
 * theoretical and measured peak bandwidth, and a self-check that the library works. */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"
#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims info [--backend auto|cuda|cpu] [--json] [--no-measure]\n\n"
          "Prints the gpuprims version, the backend in use (auto takes the GPU when one is\n"
          "usable, and says why not otherwise), the device (name, SMs, compute capability,\n"
          "memory, L2), the theoretical peak bandwidth (memory clock x bus width) and the\n"
          "measured peak read and copy bandwidth, then a self-check: reduce SUM of 1..2^20\n"
          "(u32) on the backend against n(n+1)/2.\n"
          "  --json        the same as one JSON object\n"
          "  --no-measure  skip the bandwidth measurement (quicker)\n"
          "exit status 1 also when the self-check or the measurement fails.\n");
  cli_help_footer(f);
}

/* The CUDA runtime says "driver version is insufficient" both when there is no driver
 * at all and when it is too old: tell them apart by the loaded kernel module. */
static void no_gpu_reason(char *why, size_t len) {
  if (strstr(why, "gpuprims was built without CUDA")) {
    snprintf(why, len, "this build has no CUDA backend");
    return;
  }
  int no_driver = access("/proc/driver/nvidia/version", F_OK) != 0;
  if (strstr(why, "insufficient") && no_driver)
    snprintf(why, len, "no NVIDIA driver or GPU found: the CPU backend is in use");
  else if (strstr(why, "insufficient"))
    snprintf(why, len, "the NVIDIA driver is older than this build's CUDA runtime needs: the "
             "CPU backend is in use");
  else if (strstr(why, "no CUDA-capable device") || strstr(why, "no devices found"))
    snprintf(why, len, "no NVIDIA GPU found: the CPU backend is in use");
}

/* What `gpuprims info` found, for the text or the JSON. */
typedef struct info_facts {
  gp_backend used;
  char why[600]; /* why the CPU, when it is the CPU */
  gp_device_info info;
  double theo;   /* theoretical peak GB/s, 0 if unknown */
  int measure, measured;
  double rd, cp; /* measured read and copy GB/s */
  char measure_err[512];
  uint64_t got, expect;
  int check_ok;
  char check_err[512];
} info_facts;

/* Why the CPU backend, when AUTO did not take a GPU (or the CPU was asked for). */
static void cpu_reason(gp_backend want, char *why, size_t size) {
  if (want == GP_BACKEND_CPU) {
    snprintf(why, size, "asked for");
    return;
  }
  gp_context *probe = NULL;
  (void)gp_create(&probe, GP_BACKEND_CUDA);
  snprintf(why, size, "%s", probe ? gp_last_error(probe) : "no CUDA context");
  gp_destroy(probe);
  char *colon = strstr(why, "): "); /* keep the reason, drop the advice after it */
  if (colon && strncmp(why, "no usable CUDA GPU", 18) == 0) colon[1] = '\0';
  char *advice = strstr(why, ": use the CPU");
  if (advice) *advice = '\0';
  no_gpu_reason(why, size);
}

/* self-check: SUM of 1..2^20 as u32, which widens to u64 */
static void self_check(gp_context *ctx, info_facts *f) {
  const size_t n = (size_t)1 << 20;
  uint32_t *v = (uint32_t *)malloc(n * sizeof *v);
  f->expect = (uint64_t)n * (n + 1) / 2;
  if (!v) {
    snprintf(f->check_err, sizeof f->check_err, "out of host memory");
    return;
  }
  for (size_t i = 0; i < n; i++) v[i] = (uint32_t)(i + 1);
  gp_status s = gp_reduce(ctx, GP_SUM, GP_U32, v, n, &f->got, GP_REDUCE_AUTO);
  if (s != GP_OK) snprintf(f->check_err, sizeof f->check_err, "%s: %s", gp_status_string(s), gp_last_error(ctx));
  else f->check_ok = f->got == f->expect;
  free(v);
}

/* Everything `info` reports, from ctx. Returns 1 (printed) if the device is unknown. */
static int gather(gp_context *ctx, gp_backend want, int measure, info_facts *f) {
  memset(f, 0, sizeof *f);
  f->used = gp_backend_of(ctx);
  f->measure = measure;
  if (f->used == GP_BACKEND_CPU) cpu_reason(want, f->why, sizeof f->why);
  gp_status s = gp_get_device_info(ctx, &f->info);
  if (s != GP_OK) { cli_fail("info", ctx, "gp_get_device_info", s); return 1; }
  if (f->info.mem_clock_khz > 0 && f->info.mem_bus_bits > 0)
    f->theo = 2.0 * f->info.mem_clock_khz * 1e3 * (f->info.mem_bus_bits / 8.0) / 1e9;
  if (measure) {
    s = gp_measure_bandwidth(ctx, &f->rd, &f->cp);
    if (s == GP_OK) f->measured = 1;
    else snprintf(f->measure_err, sizeof f->measure_err, "%s", gp_last_error(ctx));
  }
  self_check(ctx, f);
  return 0;
}

static void print_json(const info_facts *f) {
  const gp_device_info *info = &f->info;
  printf("{\"version\": ");
  cli_json_str(gp_version());
  printf(", \"backend\": ");
  cli_json_str(gp_backend_name(f->used));
  printf(", \"backend_reason\": ");
  cli_json_str(f->used == GP_BACKEND_CUDA ? "a usable CUDA GPU" : f->why);
  printf(", \"device\": ");
  cli_json_str(info->name);
  printf(", \"sm_count\": %d, \"compute_capability\": \"%d.%d\", \"arch\": %d, \"cpu_threads\": %d",
         info->sm_count, info->cc_major, info->cc_minor, info->arch, info->threads);
  printf(", \"memory_bytes\": %zu, \"l2_bytes\": %zu, \"mem_clock_mhz\": %.1f, \"mem_bus_bits\": %d",
         info->global_mem_bytes, info->l2_bytes, info->mem_clock_khz / 1000.0, info->mem_bus_bits);
  printf(", \"theoretical_gbs\": %.1f", f->theo);
  if (f->measured) printf(", \"measured_read_gbs\": %.1f, \"measured_copy_gbs\": %.1f", f->rd, f->cp);
  else if (f->measure) { printf(", \"measure_error\": "); cli_json_str(f->measure_err); }
  printf(", \"self_check\": {\"op\": \"sum u32 1..2^20\", \"result\": %llu, \"expected\": %llu, "
         "\"ok\": %s", (unsigned long long)f->got, (unsigned long long)f->expect, f->check_ok ? "true" : "false");
  if (f->check_err[0]) { printf(", \"error\": "); cli_json_str(f->check_err); }
  printf("}}\n");
}

static void print_text(const info_facts *f) {
  const gp_device_info *info = &f->info;
  const int cuda = f->used == GP_BACKEND_CUDA;
  printf("gpuprims %s\n", gp_version());
  if (cuda) printf("backend:        cuda\n");
  else printf("backend:        cpu (%s)\n", f->why);
  printf("device:         %s\n", info->name);
  if (cuda) {
    printf("SMs:            %d\n", info->sm_count);
    printf("compute cap.:   %d.%d", info->cc_major, info->cc_minor);
    if (info->arch != info->cc_major * 10 + info->cc_minor)
      printf(" (kernels take the paths of %d.%d: GPUPRIMS_FORCE_ARCH)", info->arch / 10, info->arch % 10);
    printf("\n");
  } else {
    printf("threads:        %d\n", info->threads);
  }
  printf("memory:         %.2f GiB\n", info->global_mem_bytes / (1024.0 * 1024 * 1024));
  if (info->l2_bytes) printf("L2 cache:       %.1f MiB\n", info->l2_bytes / (1024.0 * 1024));
  if (f->theo > 0)
    printf("peak bandwidth: %.1f GB/s theoretical (%.0f MHz x %d-bit, double data rate)\n",
           f->theo, info->mem_clock_khz / 1000.0, info->mem_bus_bits);
  if (f->measured)
    printf("measured:       %.1f GB/s read, %.1f GB/s copy (read+write)%s\n", f->rd, f->cp,
           cuda ? "" : ", host memory, wall clock");
  else if (f->measure)
    printf("measured:       failed: %s\n", f->measure_err);
  if (f->measured && f->theo > 0) printf("read / theory:  %.0f%%\n", 100.0 * f->rd / f->theo);
  printf("self-check:     reduce sum u32 1..2^20 = %llu, expected n(n+1)/2 = %llu: %s\n",
         (unsigned long long)f->got, (unsigned long long)f->expect,
         f->check_ok ? "ok" : f->check_err[0] ? f->check_err : "WRONG");
}

int cmd_info(int argc, char **argv) {
  gp_backend want = GP_BACKEND_AUTO;
  int json = 0, measure = 1;
  for (int i = 1; i < argc; i++) {
    if (cli_is_help(argv[i])) { usage(stdout); return 0; }
    if (strcmp(argv[i], "--json") == 0) json = 1;
    else if (strcmp(argv[i], "--no-measure") == 0) measure = 0;
    else if (strcmp(argv[i], "--backend") == 0) {
      if (i + 1 >= argc) { cli_error("info", "--backend needs a value (auto, cuda or cpu)"); return EXIT_USAGE; }
      if (!cli_parse_backend("info", argv[++i], &want)) return EXIT_USAGE;
    } else {
      cli_error("info", "unknown option '%s' (see gpuprims info --help)", argv[i]);
      return EXIT_USAGE;
    }
  }
  gp_context *ctx;
  if (!cli_create("info", want, &ctx)) return 1;
  info_facts f;
  if (gather(ctx, want, measure, &f)) {
    gp_destroy(ctx);
    return 1;
  }
  if (json) print_json(&f);
  else print_text(&f);
  gp_destroy(ctx);
  return f.check_ok && (f.measured || !f.measure) ? 0 : 1;
}

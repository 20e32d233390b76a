/* `gpuprims info`: the version, the backend in use (and why), the device, its
 * theoretical and measured peak bandwidth, and a self-check that the library works. */
#include "commands.h"
#include "cli_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims info [--backend auto|cuda|cpu] [--json] [--no-measure]\n\n"
          "Prints the gpuprims version, the backend in use (auto takes the GPU when one is\n"
          "usable, and says why not otherwise), the device (name, SMs, compute capability,\n"
          "memory, L2), the theoretical peak bandwidth (memory clock x bus width) and the\n"
          "measured peak read and copy bandwidth, then a self-check: reduce SUM of 1..2^20\n"
          "(u32) on the backend against n(n+1)/2.\n"
          "  --json        the same as one JSON object\n"
          "  --no-measure  skip the bandwidth measurement (quicker)\n");
}

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
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
  gp_backend used = gp_backend_of(ctx);
  /* why the CPU, when AUTO did not take a GPU */
  char why[600] = "";
  if (used == GP_BACKEND_CPU) {
    if (want == GP_BACKEND_CPU) {
      snprintf(why, sizeof why, "asked for");
    } else {
      gp_context *probe = NULL;
      (void)gp_create(&probe, GP_BACKEND_CUDA);
      snprintf(why, sizeof why, "%s", probe ? gp_last_error(probe) : "no CUDA context");
      gp_destroy(probe);
      char *colon = strstr(why, "): "); /* keep the reason, drop the advice after it */
      if (colon && strncmp(why, "no usable CUDA GPU", 18) == 0) colon[1] = '\0';
      char *advice = strstr(why, ": use the CPU");
      if (advice) *advice = '\0';
    }
  }
  gp_device_info info;
  gp_status s = gp_get_device_info(ctx, &info);
  if (s != GP_OK) { cli_fail("info", ctx, "gp_get_device_info", s); gp_destroy(ctx); return 1; }
  double theo = 0;
  if (info.mem_clock_khz > 0 && info.mem_bus_bits > 0)
    theo = 2.0 * info.mem_clock_khz * 1e3 * (info.mem_bus_bits / 8.0) / 1e9;
  double rd = 0, cp = 0;
  int measured = 0;
  char measure_err[512] = "";
  if (measure) {
    s = gp_measure_bandwidth(ctx, &rd, &cp);
    if (s == GP_OK) measured = 1;
    else snprintf(measure_err, sizeof measure_err, "%s", gp_last_error(ctx));
  }
  /* self-check: SUM of 1..2^20 as u32, which widens to u64 */
  const size_t n = (size_t)1 << 20;
  uint32_t *v = (uint32_t *)malloc(n * sizeof *v);
  uint64_t got = 0, expect = (uint64_t)n * (n + 1) / 2;
  int check_ok = 0;
  char check_err[512] = "";
  if (!v) {
    snprintf(check_err, sizeof check_err, "out of host memory");
  } else {
    for (size_t i = 0; i < n; i++) v[i] = (uint32_t)(i + 1);
    s = gp_reduce(ctx, GP_SUM, GP_U32, v, n, &got, GP_REDUCE_AUTO);
    if (s != GP_OK) snprintf(check_err, sizeof check_err, "%s: %s", gp_status_string(s), gp_last_error(ctx));
    else check_ok = got == expect;
    free(v);
  }

  if (json) {
    printf("{\"version\": ");
    json_str(gp_version());
    printf(", \"backend\": ");
    json_str(gp_backend_name(used));
    printf(", \"backend_reason\": ");
    json_str(used == GP_BACKEND_CUDA ? "a usable CUDA GPU" : why);
    printf(", \"device\": ");
    json_str(info.name);
    printf(", \"sm_count\": %d, \"compute_capability\": \"%d.%d\", \"arch\": %d, \"cpu_threads\": %d",
           info.sm_count, info.cc_major, info.cc_minor, info.arch, info.threads);
    printf(", \"memory_bytes\": %zu, \"l2_bytes\": %zu, \"mem_clock_mhz\": %.1f, \"mem_bus_bits\": %d",
           info.global_mem_bytes, info.l2_bytes, info.mem_clock_khz / 1000.0, info.mem_bus_bits);
    printf(", \"theoretical_gbs\": %.1f", theo);
    if (measured) printf(", \"measured_read_gbs\": %.1f, \"measured_copy_gbs\": %.1f", rd, cp);
    else if (measure) { printf(", \"measure_error\": "); json_str(measure_err); }
    printf(", \"self_check\": {\"op\": \"sum u32 1..2^20\", \"result\": %llu, \"expected\": %llu, "
           "\"ok\": %s", (unsigned long long)got, (unsigned long long)expect, check_ok ? "true" : "false");
    if (check_err[0]) { printf(", \"error\": "); json_str(check_err); }
    printf("}}\n");
  } else {
    printf("gpuprims %s\n", gp_version());
    if (used == GP_BACKEND_CUDA) printf("backend:        cuda\n");
    else printf("backend:        cpu (%s)\n", why);
    printf("device:         %s\n", info.name);
    if (used == GP_BACKEND_CUDA) {
      printf("SMs:            %d\n", info.sm_count);
      printf("compute cap.:   %d.%d", info.cc_major, info.cc_minor);
      if (info.arch != info.cc_major * 10 + info.cc_minor)
        printf(" (kernels take the paths of %d.%d: GPUPRIMS_FORCE_ARCH)", info.arch / 10, info.arch % 10);
      printf("\n");
    } else {
      printf("threads:        %d\n", info.threads);
    }
    printf("memory:         %.2f GiB\n", info.global_mem_bytes / (1024.0 * 1024 * 1024));
    if (info.l2_bytes) printf("L2 cache:       %.1f MiB\n", info.l2_bytes / (1024.0 * 1024));
    if (theo > 0)
      printf("peak bandwidth: %.1f GB/s theoretical (%.0f MHz x %d-bit, double data rate)\n",
             theo, info.mem_clock_khz / 1000.0, info.mem_bus_bits);
    if (measured)
      printf("measured:       %.1f GB/s read, %.1f GB/s copy (read+write)%s\n", rd, cp,
             used == GP_BACKEND_CPU ? ", host memory, wall clock" : "");
    else if (measure)
      printf("measured:       failed: %s\n", measure_err);
    if (measured && theo > 0) printf("read / theory:  %.0f%%\n", 100.0 * rd / theo);
    printf("self-check:     reduce sum u32 1..2^20 = %llu, expected n(n+1)/2 = %llu: %s\n",
           (unsigned long long)got, (unsigned long long)expect,
           check_ok ? "ok" : check_err[0] ? check_err : "WRONG");
  }
  gp_destroy(ctx);
  return check_ok && (measured || !measure) ? 0 : 1;
}

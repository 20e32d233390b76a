/* gpuprims model: the cost models of the public API printed as the chapters print
 * them (divergence tables of seed 000, bank conflicts of seed 003, two-phase span),
 * or as JSON (--json) for scripts/ncu_models.py. */
#include "cli_util.h"
#include "commands.h"

#include <stdio.h>
#include <string.h>

#define CMD "model"

static void usage(FILE *f) {
  fprintf(f,
          "usage: gpuprims model divergence --algo NAME --block N [--warp W] [--partials P] [--json]\n"
          "       gpuprims model banks (--algo NAME | --stride S) --block N [--warp W]\n"
          "                            [--banks B] [--bank-bytes 4|8] [--dtype f32|f64|...] [--json]\n"
          "       gpuprims model span --n N --blocks B --block T [--phase2-block T2]\n"
          "                           [--design chapter|multi-level|library|seed|all] [--json]\n\n"
          "Cost models of the reduction kernels (host only, no GPU needed):\n"
          "  divergence  issue passes per step: per warp 0 (idle), 1 (all lanes), 2 (mixed)\n"
          "  banks       shared-memory bank conflict degree of every access, per step\n"
          "  span        work and span of the two-phase design (seed 000, 4.3)\n\n"
          "algorithms: interleaved, interleaved-strided, sequential, two-phase, warp-atomic,\n"
          "            warp-shared\n"
          "block: a power of two, 1 .. 1024; warp: a power of two, 1 .. 64 (default 32)\n"
          "Tables number the phases 1 and 2; the JSON gives both \"kernel\" (0, 1, as\n"
          "gp_div_step.kernel) and \"phase\" (1, 2).\n");
  cli_help_footer(f);
}

typedef struct opts {
  int have_algo, have_stride, json;
  gp_model_config cfg;
  unsigned long stride;
  uint64_t n, blocks;
  unsigned phase2_block;
  int design; /* -1: all */
} opts;

static int parse_unsigned(const char *opt, const char *val, uint64_t max, uint64_t *out) {
  if (!val) {
    cli_error(CMD, "%s needs a value", opt);
    return 0;
  }
  if (!cli_parse_u64(val, out) || *out > max) {
    cli_error(CMD, "%s: '%s' is not a whole number up to %llu", opt, val, (unsigned long long)max);
    return 0;
  }
  return 1;
}

/* Returns 0 on success, EXIT_USAGE after printing a message, or -1 for --help. */
static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->design = -1;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    uint64_t x;
    if (cli_is_help(a)) return -1;
    if (strcmp(a, "--json") == 0) { o->json = 1; continue; }
    if (strcmp(a, "--algo") == 0) {
      if (!v || gp_model_algo_from_name(v, &o->cfg.algo) != GP_OK) {
        cli_error(CMD, "--algo: unknown algorithm '%s': use interleaved, interleaved-strided, "
                  "sequential, two-phase, warp-atomic or warp-shared", v ? v : "");
        return EXIT_USAGE;
      }
      o->have_algo = 1;
    } else if (strcmp(a, "--block") == 0) {
      if (!parse_unsigned(a, v, 1u << 30, &x)) return EXIT_USAGE;
      if (x == 0) { cli_error(CMD, "--block must be a power of two, 1 .. 1024"); return EXIT_USAGE; }
      o->cfg.block = (unsigned)x;
    } else if (strcmp(a, "--warp") == 0) {
      if (!parse_unsigned(a, v, 1u << 30, &x)) return EXIT_USAGE;
      if (x == 0) { cli_error(CMD, "--warp must be at least 1"); return EXIT_USAGE; }
      o->cfg.warp = (unsigned)x;
    } else if (strcmp(a, "--banks") == 0) {
      if (!parse_unsigned(a, v, 1u << 30, &x)) return EXIT_USAGE;
      if (x == 0) { cli_error(CMD, "--banks must be at least 1"); return EXIT_USAGE; }
      o->cfg.banks = (unsigned)x;
    } else if (strcmp(a, "--bank-bytes") == 0) {
      if (!parse_unsigned(a, v, 1u << 30, &x)) return EXIT_USAGE;
      if (x == 0) { cli_error(CMD, "--bank-bytes must be 4 or 8"); return EXIT_USAGE; }
      o->cfg.bank_bytes = (unsigned)x;
    } else if (strcmp(a, "--dtype") == 0) {
      gp_dtype t;
      if (!v || gp_dtype_from_name(v, &t) != GP_OK) {
        cli_error(CMD, "--dtype: unknown type '%s': use f32, f64, i32, i64, u32 or u64", v ? v : "");
        return EXIT_USAGE;
      }
      o->cfg.elem_bytes = (unsigned)gp_dtype_size(t);
    } else if (strcmp(a, "--partials") == 0) {
      if (!parse_unsigned(a, v, 1u << 30, &x)) return EXIT_USAGE;
      if (x == 0) { cli_error(CMD, "--partials must be at least 1"); return EXIT_USAGE; }
      o->cfg.partials = (unsigned)x;
    } else if (strcmp(a, "--stride") == 0) {
      if (!parse_unsigned(a, v, 1u << 20, &x)) return EXIT_USAGE;
      o->stride = (unsigned long)x;
      o->have_stride = 1;
    } else if (strcmp(a, "--n") == 0) {
      if (!parse_unsigned(a, v, UINT64_MAX, &o->n)) return EXIT_USAGE;
      if (o->n == 0) { cli_error(CMD, "--n must be at least 1 (elements to reduce)"); return EXIT_USAGE; }
    } else if (strcmp(a, "--blocks") == 0) {
      if (!parse_unsigned(a, v, 1u << 20, &o->blocks)) return EXIT_USAGE;
      if (o->blocks == 0) { cli_error(CMD, "--blocks must be at least 1"); return EXIT_USAGE; }
    } else if (strcmp(a, "--phase2-block") == 0) {
      if (!parse_unsigned(a, v, 1u << 30, &x)) return EXIT_USAGE;
      o->phase2_block = (unsigned)x;
    } else if (strcmp(a, "--design") == 0) {
      int d = -2;
      if (v && strcmp(v, "all") == 0) d = -1;
      for (int k = 0; v && k < GP_SPAN_DESIGN_COUNT; k++)
        if (strcmp(v, gp_span_design_name((gp_span_design)k)) == 0) d = k;
      if (d == -2) {
        cli_error(CMD, "--design: unknown design '%s': use chapter, multi-level, library, seed or all",
                  v ? v : "");
        return EXIT_USAGE;
      }
      o->design = d;
    } else {
      cli_error(CMD, "unknown option '%s' (gpuprims model --help lists them)", a);
      return EXIT_USAGE;
    }
    i++; /* every option but --json and --help takes a value */
  }
  return 0;
}

static const char *algo_phrase(gp_model_algo a) {
  switch (a) {
  case GP_MODEL_INTERLEAVED: return "interleaved addressing";
  case GP_MODEL_INTERLEAVED_STRIDED: return "interleaved addressing, strided index";
  case GP_MODEL_SEQUENTIAL: return "sequential addressing";
  case GP_MODEL_TWO_PHASE: return "two-phase";
  case GP_MODEL_WARP_ATOMIC: return "warp-atomic, shuffles";
  case GP_MODEL_WARP_SHARED: return "warp-shared, Shared_mem_sum";
  }
  return "?";
}

static void json_sum(const char *name, const gp_div_sum *s) {
  printf("\"%s\": {\"steps\": %u, \"issue_passes\": %lu, \"active_threads\": %lu, "
         "\"active_warps\": %lu, \"mixed_warps\": %lu, \"max_mixed_per_step\": %u, "
         "\"lanes_per_issue\": %.6f}",
         name, s->steps, s->issue_passes, s->active_threads, s->active_warps, s->mixed_warps,
         s->max_mixed_per_step, s->lanes_per_issue);
}

/* Sums rows [from, to) of one kernel's table. */
static unsigned long table_passes(const gp_div_step *st, size_t n, unsigned kernel, unsigned *rows) {
  unsigned long p = 0;
  *rows = 0;
  for (size_t k = 0; k < n; k++)
    if (st[k].in_table && st[k].kernel == kernel) p += st[k].issue_passes, (*rows)++;
  return p;
}

static void divergence_json(const opts *o, const gp_div_step *st, size_t n, const gp_div_total *tot,
                            int have_i, const gp_div_total *itot) {
  const unsigned W = o->cfg.warp ? o->cfg.warp : 32;
  printf("{\"model\": \"divergence\", \"algo\": \"%s\", \"block\": %u, \"warp\": %u, \"steps\": [",
         gp_model_algo_name(o->cfg.algo), o->cfg.block, W);
  for (size_t k = 0; k < n; k++) {
    printf("%s\n  {\"kernel\": %u, \"phase\": %u, \"part\": \"%s\", \"step_s\": %ld, "
           "\"in_table\": %s, \"what\": ",
           k ? "," : "", st[k].kernel, st[k].kernel + 1, gp_model_part_name(st[k].part),
           st[k].step_s, st[k].in_table ? "true" : "false");
    cli_json_str(st[k].what);
    printf(", \"active_threads\": %u, \"active_warps\": %u, \"mixed_warps\": %u, "
           "\"issue_passes\": %u}", st[k].active_threads, st[k].active_warps,
           st[k].mixed_warps, st[k].issue_passes);
  }
  printf("],\n ");
  json_sum("table", &tot->table);
  printf(",\n ");
  json_sum("kernel", &tot->kernel);
  if (have_i) printf(",\n \"interleaved_table_issue_passes\": %lu", itot->table.issue_passes);
  printf("}\n");
}

/* "-" for a statement outside the tree (step_s <= 0). */
static const char *step_text(long step_s, char *buf, size_t size) {
  if (step_s > 0) snprintf(buf, size, "%ld", step_s);
  else snprintf(buf, size, "-");
  return buf;
}

/* The chapter's table of kernel `kern` (of `kernels`): step, active threads, passes. */
static void divergence_table(const opts *o, const gp_div_step *st, size_t n, unsigned kern,
                             unsigned kernels) {
  const int chapter = o->cfg.algo == GP_MODEL_INTERLEAVED || o->cfg.algo == GP_MODEL_SEQUENTIAL;
  if (kernels == 2)
    printf("%s\n", kern == 0 ? "phase 1 (each phase-1 block), sequential-addressing tree:"
                             : "phase 2 (the one phase-2 block), sequential-addressing tree:");
  printf("%-8s %-16s %-10s\n", "step_s", "active_threads", "issue_passes");
  for (size_t k = 0; k < n; k++) {
    if (!st[k].in_table || st[k].kernel != kern) continue;
    char sbuf[24];
    step_text(st[k].step_s, sbuf, sizeof sbuf);
    if (chapter || kernels == 2)
      printf("%-8s %-16lld %-10d\n", sbuf, (long long)st[k].active_threads, (int)st[k].issue_passes);
    else
      printf("%-8s %-16lld %-10d %s\n", sbuf, (long long)st[k].active_threads,
             (int)st[k].issue_passes, st[k].what);
  }
  unsigned rows;
  unsigned long p = table_passes(st, n, kern, &rows);
  if (kernels == 2)
    printf("\ntotal issue-passes across all %u steps (%s, phase %u): %lu\n\n", rows,
           algo_phrase(o->cfg.algo), kern + 1, p);
  else
    printf("\ntotal issue-passes across all %u steps (%s): %lu\n", rows,
           algo_phrase(o->cfg.algo), p);
}

/* Every statement of one block of each kernel, and the totals. */
static void divergence_statements(const gp_div_step *st, size_t n, const gp_div_total *tot) {
  printf("\nevery statement, one block of each kernel (the table rows are marked *):\n");
  printf("  %-6s %-9s %-6s %-14s %-12s %-11s %-12s %s\n", "phase", "part", "step_s",
         "active_threads", "active_warps", "mixed_warps", "issue_passes", "statement");
  for (size_t k = 0; k < n; k++) {
    char sbuf[24];
    step_text(st[k].step_s, sbuf, sizeof sbuf);
    printf("%c %-6u %-9s %-6s %-14u %-12u %-11u %-12u %s\n", st[k].in_table ? '*' : ' ',
           st[k].kernel + 1, gp_model_part_name(st[k].part), sbuf, st[k].active_threads,
           st[k].active_warps, st[k].mixed_warps, st[k].issue_passes, st[k].what);
  }
  printf("\ntable: %lu divergent warp-steps (at most %u in one step), %lu warp issues of "
         "the body, %.2f active lanes per issue\n",
         tot->table.mixed_warps, tot->table.max_mixed_per_step, tot->table.active_warps,
         tot->table.lanes_per_issue);
  printf("every statement: %lu issue passes, %lu divergent warp-steps, %.2f active lanes per issue\n",
         tot->kernel.issue_passes, tot->kernel.mixed_warps, tot->kernel.lanes_per_issue);
}

static int run_divergence(gp_context *ctx, opts *o) {
  gp_div_step st[GP_MODEL_MAX_STEPS];
  size_t n;
  gp_div_total tot;
  gp_status s = gp_model_divergence(ctx, &o->cfg, st, GP_MODEL_MAX_STEPS, &n, &tot);
  if (s) {
    cli_error(CMD, "divergence: %s", gp_last_error(ctx));
    return s == GP_ERR_INVALID_ARGUMENT ? EXIT_USAGE : 1;
  }
  const unsigned W = o->cfg.warp ? o->cfg.warp : 32;
  /* the interleaved figure at the same sizes, for the chapter's comparison */
  gp_model_config ic = o->cfg;
  ic.algo = GP_MODEL_INTERLEAVED;
  gp_div_total itot;
  int have_i = gp_model_divergence(ctx, &ic, NULL, 0, NULL, &itot) == GP_OK;
  if (o->json) {
    divergence_json(o, st, n, &tot, have_i, &itot);
    return 0;
  }
  printf("model divergence: %s, block %u, warp %u (%u warps)\n\n", gp_model_algo_name(o->cfg.algo),
         o->cfg.block, W, (o->cfg.block + W - 1) / W);
  unsigned kernels = o->cfg.algo == GP_MODEL_TWO_PHASE ? 2 : 1;
  for (unsigned kern = 0; kern < kernels; kern++) divergence_table(o, st, n, kern, kernels);
  if (kernels == 2)
    printf("total issue-passes of both trees (one block of each phase): %lu\n",
           tot.table.issue_passes);
  if (o->cfg.algo != GP_MODEL_INTERLEAVED && have_i && tot.table.issue_passes) {
    if (o->cfg.algo == GP_MODEL_SEQUENTIAL)
      printf("sequential addressing's reduction in issue-passes: %lu -> %lu (%.2fx fewer)\n",
             itot.table.issue_passes, tot.table.issue_passes,
             (double)itot.table.issue_passes / (double)tot.table.issue_passes);
    else
      printf("against interleaved addressing at the same block: %lu -> %lu (%.2fx)\n",
             itot.table.issue_passes, tot.table.issue_passes,
             (double)itot.table.issue_passes / (double)tot.table.issue_passes);
  }
  divergence_statements(st, n, &tot);
  return 0;
}

/* A degree above 1 is a conflict only beyond the wavefronts the access needs anyway
 * (8-byte lanes need 2 per warp). */
static const char *degree_word(unsigned d, unsigned long conflicts, char *buf, size_t n) {
  if (d <= 1 || !conflicts) snprintf(buf, n, "conflict-free");
  else snprintf(buf, n, "%u-way conflict", d);
  return buf;
}

static int run_banks(gp_context *ctx, opts *o) {
  const unsigned W = o->cfg.warp ? o->cfg.warp : 32, B = o->cfg.banks ? o->cfg.banks : 32;
  const unsigned BB = o->cfg.bank_bytes ? o->cfg.bank_bytes : 4, EB = o->cfg.elem_bytes ? o->cfg.elem_bytes : 4;
  char buf[48];
  if (o->have_stride) {
    gp_bank_access a;
    unsigned d0 = 0;
    gp_status s = gp_model_bank_stride(ctx, &o->cfg, o->stride, &a, &d0);
    if (s) {
      cli_error(CMD, "banks: %s", gp_last_error(ctx));
      return s == GP_ERR_INVALID_ARGUMENT ? EXIT_USAGE : 1;
    }
    if (o->json) {
      printf("{\"model\": \"banks\", \"stride\": %lu, \"block\": %u, \"warp\": %u, \"banks\": %u, "
             "\"bank_bytes\": %u, \"elem_bytes\": %u, \"degree_warp0\": %u, \"max_degree\": %u, "
             "\"requests\": %u, \"wavefronts\": %lu, \"ideal\": %lu, \"conflicts\": %lu}\n",
             o->stride, o->cfg.block, W, B, BB, EB, d0, a.max_degree, a.warps, a.wavefronts,
             a.ideal, a.conflicts);
      return 0;
    }
    printf("model banks: a[tid * %lu], block %u, warp %u, %u banks of %u bytes, %u-byte elements\n",
           o->stride, o->cfg.block, W, B, BB, EB);
    printf("warp 0: degree %u (%s)\n", d0, degree_word(d0, a.conflicts, buf, sizeof buf));
    printf("block: %u warp requests, %lu wavefronts (%lu at best), %lu conflicts, worst degree %u\n",
           a.warps, a.wavefronts, a.ideal, a.conflicts, a.max_degree);
    return 0;
  }
  gp_bank_access acc[3 * GP_MODEL_MAX_STEPS];
  size_t n;
  gp_bank_total t;
  gp_status s = gp_model_banks(ctx, &o->cfg, acc, 3 * GP_MODEL_MAX_STEPS, &n, &t);
  if (s) {
    cli_error(CMD, "banks: %s", gp_last_error(ctx));
    return s == GP_ERR_INVALID_ARGUMENT ? EXIT_USAGE : 1;
  }
  if (o->json) {
    printf("{\"model\": \"banks\", \"algo\": \"%s\", \"block\": %u, \"warp\": %u, \"banks\": %u, "
           "\"bank_bytes\": %u, \"elem_bytes\": %u, \"accesses\": [",
           gp_model_algo_name(o->cfg.algo), o->cfg.block, W, B, BB, EB);
    for (size_t k = 0; k < n; k++) {
      printf("%s\n  {\"kernel\": %u, \"phase\": %u, \"part\": \"%s\", \"step_s\": %ld, "
             "\"access\": ", k ? "," : "", acc[k].kernel, acc[k].kernel + 1,
             gp_model_part_name(acc[k].part), acc[k].step_s);
      cli_json_str(acc[k].access);
      printf(", \"store\": %s, \"warps\": %u, \"max_degree\": %u, \"wavefronts\": %lu, "
             "\"ideal\": %lu, \"conflicts\": %lu}", acc[k].is_store ? "true" : "false",
             acc[k].warps, acc[k].max_degree, acc[k].wavefronts, acc[k].ideal, acc[k].conflicts);
    }
    printf("],\n \"total\": {\"ld_requests\": %lu, \"st_requests\": %lu, \"ld_wavefronts\": %lu, "
           "\"st_wavefronts\": %lu, \"ld_conflicts\": %lu, \"st_conflicts\": %lu, "
           "\"max_degree\": %u}}\n", t.ld_requests, t.st_requests, t.ld_wavefronts,
           t.st_wavefronts, t.ld_conflicts, t.st_conflicts, t.max_degree);
    return 0;
  }
  printf("model banks: %s, block %u, warp %u, %u banks of %u bytes, %u-byte elements\n\n",
         gp_model_algo_name(o->cfg.algo), o->cfg.block, W, B, BB, EB);
  printf("%-6s %-9s %-6s %-34s %-5s %-10s %-10s %-9s\n", "phase", "part", "step_s", "access",
         "warps", "max_degree", "wavefronts", "conflicts");
  for (size_t k = 0; k < n; k++) {
    char sbuf[24];
    if (acc[k].step_s > 0) snprintf(sbuf, sizeof sbuf, "%ld", acc[k].step_s);
    else snprintf(sbuf, sizeof sbuf, "-");
    printf("%-6u %-9s %-6s %-34s %-5u %-10u %-10lu %-9lu\n", acc[k].kernel + 1,
           gp_model_part_name(acc[k].part), sbuf, acc[k].access, acc[k].warps, acc[k].max_degree,
           acc[k].wavefronts, acc[k].conflicts);
  }
  printf("\nloads:  %lu warp requests, %lu wavefronts, %lu bank conflicts\n", t.ld_requests,
         t.ld_wavefronts, t.ld_conflicts);
  printf("stores: %lu warp requests, %lu wavefronts, %lu bank conflicts\n", t.st_requests,
         t.st_wavefronts, t.st_conflicts);
  printf("worst access: degree %u (%s)\n", t.max_degree,
         degree_word(t.max_degree, t.ld_conflicts + t.st_conflicts, buf, sizeof buf));
  return 0;
}

static void print_stage_json(const gp_span_stage *s) {
  printf("{\"inputs\": %llu, \"blocks\": %llu, \"threads\": %u, \"grid_stride\": %s, "
         "\"loop_len\": %llu, \"loop_levels\": %llu, \"tree_steps\": %u, \"tree_levels\": %u, "
         "\"adds\": %llu, \"combines\": %llu, \"outputs\": %llu, \"unread\": %llu}",
         (unsigned long long)s->inputs, (unsigned long long)s->blocks, s->threads,
         s->grid_stride ? "true" : "false", (unsigned long long)s->loop_len,
         (unsigned long long)s->loop_levels, s->tree_steps, s->tree_levels,
         (unsigned long long)s->adds, (unsigned long long)s->combines,
         (unsigned long long)s->outputs, (unsigned long long)s->unread);
}

static const char *design_phrase(gp_span_design d) {
  switch (d) {
  case GP_SPAN_CHAPTER: return "the chapter's formula: phase 2 is one block with a thread per partial";
  case GP_SPAN_SEED: return "the seed's reduce_phase2 as written: one block reading partials[tid]";
  case GP_SPAN_MULTI_LEVEL: return "multi-level: the seed's phase 2 relaunched over blocks (2a, 2b, ...)";
  case GP_SPAN_LIBRARY: return "the library's GP_REDUCE_TWO_PHASE: one phase-2 block, grid-stride over the partials";
  }
  return "?";
}

static void span_json(const opts *o, const gp_span_result *r, int first, int last, unsigned T2) {
  printf("{\"model\": \"span\", \"n\": %llu, \"blocks\": %llu, \"block\": %u, \"phase2_block\": %u, "
         "\"designs\": [", (unsigned long long)o->n, (unsigned long long)o->blocks, o->cfg.block, T2);
  for (int d = first; d <= last; d++) {
    const gp_span_result *x = &r[d];
    printf("%s\n {\"design\": \"%s\", \"launch_boundaries\": %u, \"span_levels\": %llu, "
           "\"span_levels_loops\": %llu, \"span_steps\": %llu, \"work_adds\": %llu, "
           "\"work_combines\": %llu, \"stages\": [", d > first ? "," : "",
           gp_span_design_name((gp_span_design)d), x->launch_boundaries,
           (unsigned long long)x->span_levels, (unsigned long long)x->span_levels_loops,
           (unsigned long long)x->span_steps, (unsigned long long)x->work_adds,
           (unsigned long long)x->work_combines);
    for (unsigned i = 0; i < x->nstages; i++) {
      printf("%s\n   ", i ? "," : "");
      print_stage_json(&x->stage[i]);
    }
    printf("]}");
  }
  printf("]}\n");
}

/* One design's launches (1, 2 or 2a, 2b, ...), its span three ways and its work. */
static void span_design(const opts *o, const gp_span_result *x, gp_span_design d) {
  printf("\n%s:\n", design_phrase(d));
  printf("  %-6s %-12s %-8s %-7s %-9s %-11s %-10s %-11s %-13s %-13s %s\n", "launch", "inputs",
         "blocks", "threads", "loop_len", "loop_levels", "tree_steps", "tree_levels", "adds",
         "combines", "unread");
  for (unsigned i = 0; i < x->nstages; i++) {
    const gp_span_stage *s = &x->stage[i];
    char name[16];
    if (i == 0) snprintf(name, sizeof name, "1");
    else if (x->nstages == 2) snprintf(name, sizeof name, "2");
    else snprintf(name, sizeof name, "2%c", 'a' + (i - 1) % 26);
    printf("  %-6s %-12llu %-8llu %-7u %-9llu %-11llu %-10u %-11u %-13llu %-13llu %llu\n", name,
           (unsigned long long)s->inputs, (unsigned long long)s->blocks, s->threads,
           (unsigned long long)s->loop_len, (unsigned long long)s->loop_levels, s->tree_steps,
           s->tree_levels, (unsigned long long)s->adds, (unsigned long long)s->combines,
           (unsigned long long)s->unread);
  }
  printf("  span (tree levels + launch boundaries, the chapter's measure): ");
  for (unsigned i = 0; i < x->nstages; i++)
    printf("%s%u", i ? " + 1 + " : "", x->stage[i].tree_levels);
  printf(" = %llu\n", (unsigned long long)x->span_levels);
  printf("  span with the grid-stride loops' levels: ");
  for (unsigned i = 0; i < x->nstages; i++)
    printf("%s%llu + %u", i ? " + 1 + " : "", (unsigned long long)x->stage[i].loop_levels,
           x->stage[i].tree_levels);
  printf(" = %llu\n", (unsigned long long)x->span_levels_loops);
  printf("  executed steps (grid-stride loop length + tree steps, + 1 per launch boundary): ");
  for (unsigned i = 0; i < x->nstages; i++)
    printf("%s%llu + %u", i ? " + 1 + " : "",
           (unsigned long long)(x->stage[i].grid_stride ? x->stage[i].loop_len : 0),
           x->stage[i].tree_steps);
  printf(" = %llu\n", (unsigned long long)x->span_steps);
  printf("  work: %llu additions executed, %llu of two real values (n - 1 = %llu)%s\n",
         (unsigned long long)x->work_adds, (unsigned long long)x->work_combines,
         (unsigned long long)(o->n - 1),
         x->work_combines == o->n - 1 ? "" : "  <- WRONG SUM: some values are never read");
}

static int run_span(gp_context *ctx, opts *o) {
  if (!o->n || !o->blocks || !o->cfg.block) {
    cli_error(CMD, "span needs --n, --blocks and --block");
    return EXIT_USAGE;
  }
  gp_span_config c = {o->n, o->blocks, o->cfg.block, o->phase2_block};
  gp_span_result r[GP_SPAN_DESIGN_COUNT];
  int first = o->design < 0 ? 0 : o->design, last = o->design < 0 ? GP_SPAN_DESIGN_COUNT - 1 : o->design;
  for (int d = first; d <= last; d++) {
    gp_status s = gp_model_span(ctx, &c, (gp_span_design)d, &r[d]);
    if (s) {
      cli_error(CMD, "span: %s", gp_last_error(ctx));
      return s == GP_ERR_INVALID_ARGUMENT ? EXIT_USAGE : 1;
    }
  }
  const unsigned T2 = o->phase2_block ? o->phase2_block : o->cfg.block;
  if (o->json) {
    span_json(o, r, first, last, T2);
    return 0;
  }
  const gp_span_stage *p1 = &r[first].stage[0];
  printf("model span: n = %llu, phase 1 = %llu blocks x %u threads, phase 2 blocks of %u threads\n",
         (unsigned long long)o->n, (unsigned long long)o->blocks, o->cfg.block, T2);
  printf("phase 1 grid-stride loop: %llu elements for the busiest thread (stride %llu)\n",
         (unsigned long long)p1->loop_len, (unsigned long long)(o->blocks * o->cfg.block));
  for (int d = first; d <= last; d++) span_design(o, &r[d], (gp_span_design)d);
  return 0;
}

int cmd_model(int argc, char **argv) {
  if (argc < 2 || cli_is_help(argv[1])) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? EXIT_USAGE : 0;
  }
  const char *sub = argv[1];
  int which = strcmp(sub, "divergence") == 0 ? 1 : strcmp(sub, "banks") == 0 ? 2
            : strcmp(sub, "span") == 0 ? 3 : 0;
  if (!which) {
    cli_error(CMD, "unknown model '%s': use divergence, banks or span", sub);
    return EXIT_USAGE;
  }
  opts o;
  int rc = parse(argc, argv, &o);
  if (rc < 0) {
    usage(stdout);
    return 0;
  }
  if (rc) return rc;
  if (which != 3 && !o.cfg.block) {
    cli_error(CMD, "%s needs --block N", sub);
    return EXIT_USAGE;
  }
  if (which == 1 && !o.have_algo) {
    cli_error(CMD, "divergence needs --algo NAME");
    return EXIT_USAGE;
  }
  if (which == 2 && o.have_algo == o.have_stride) {
    cli_error(CMD, "banks needs exactly one of --algo NAME and --stride S");
    return EXIT_USAGE;
  }
  /* The models need no device: a CPU context carries their error messages. */
  gp_context *ctx = NULL;
  if (!cli_create(CMD, GP_BACKEND_CPU, &ctx)) return 1;
  rc = which == 1 ? run_divergence(ctx, &o) : which == 2 ? run_banks(ctx, &o) : run_span(ctx, &o);
  gp_destroy(ctx);
  return rc;
}

/* Benchmark suites, run by `gpuprims bench <suite>`. Each takes the suite's argv
 * (argv[0] is the suite name) and returns an exit status (0, 1, or 2 for usage).
 * The harness they share is bench/harness.h. */
#ifndef GP_BENCH_SUITES_H
#define GP_BENCH_SUITES_H

int gp_bench_reduce(int argc, char **argv);
int gp_bench_sort(int argc, char **argv);
int gp_bench_integrate(int argc, char **argv); /* argv[0] "trap" (its alias) or "integrate" */
int gp_bench_host(int argc, char **argv);
int gp_bench_dist(int argc, char **argv); /* many GPUs: gp_dist_sort / gp_dist_reduce */

#endif

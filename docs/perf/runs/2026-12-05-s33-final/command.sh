#!/usr/bin/env bash
# s33-final (2026-12-05): binaries of $1 built here for sm_90 and carried (s33b.tar.xz):
# the session's last code (vsort's 8-byte networks, the Python torch adapter's
# new_empty, the load16.cuh experiment taken out). (1) CTest without the CPU-only suites
# (CI runs those) and without python_pytest, (2) pytest -rs (torch, CuPy, JAX), (3)
# scripts/python_spread_probe.py with the library as committed and `oldtopk` (topk.c
# before its select path stopped waiting), alternating, two processes each, (4) the
# Python benches argmax_rows and topk_rows, two processes. (5) The variant `hyb`
# (argreduce_segments.cu with rows of 16384+ elements split into chunks of 1024 .. 8192,
# about 16384 a call; offsets as committed): its test_argreduce_gpu (whole, then memcheck
# quick) and the arg-max rows bench against CUB beside the committed kernel.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s33b.tar.xz
[ "$(realpath .)" = /work/main ] || { mkdir -p /work && ln -sfn "$(realpath .)" /work/main; }
REPO=$(realpath .); B=$REPO/build; PY=$REPO/python; LIBP=$B/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; nproc; } >$O
CPU_ONLY='^(cli_install|python_pytest|test_reduce_cpu|test_reduce_exact|test_argreduce|test_dist_combine|test_topk|test_topk_rows|test_sort_cpu|test_sort_cpu_radix|test_psort_math|test_reduce_segments|test_integrate_cpu|test_io|test_io_map|test_expr|test_version|test_model_banks|test_model_divergence|test_model_span|test_integrate_disk_cache|test_integrate_interp_build)(_avx2|_scalar)?$'
OMP_NUM_THREADS=4 timeout 240 ctest --test-dir build -j 6 -E "$CPU_ONLY" --output-on-failure --timeout 230 >$R/ctest.log 2>&1
echo "ctest (GPU suites) exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
(cd $PY && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 100 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1
echo "pytest exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/pytest.log)" >>$O
grep -E "^SKIPPED|FAILED" $R/pytest.log | head -20 >>$O
pack
(cd $B && timeout 100 ./test_argreduce_gpu_hyb) >$R/test_argreduce_hyb.log 2>&1
echo "test_argreduce_gpu_hyb exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/test_argreduce_hyb.log)" >>$O
(cd $B && GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_argreduce_gpu_hyb) >$R/memcheck_argreduce_hyb.log 2>&1
echo "memcheck test_argreduce_gpu_hyb (quick) exit $? [$((SECONDS - T0))s] $(grep -h SUMMARY $R/memcheck_argreduce_hyb.log | tail -1)" >>$O
for v in gpuprims gpuprims_hyb gpuprims gpuprims_hyb; do
  timeout 40 $B/$v bench reduce --op argmax --rows 2048,8192,16384,32768,65536,2^20 --n 2^24,2^26 --dtype f32,f64 --max-time 0.05 --quiet --json $R/bench_rows_$v.$SECONDS.json >>$R/bench_rows_$v.txt 2>&1
  echo "bench argmax rows $v exit $? [$((SECONDS - T0))s]" >>$O
done
pack
for lib in libgpuprims.so libgpuprims_oldtopk.so libgpuprims.so libgpuprims_oldtopk.so; do
  (cd /tmp && GPUPRIMS_LIBRARY=$B/$lib PYTHONPATH=$PY timeout 40 python3 $REPO/scripts/python_spread_probe.py) >>$R/probe_${lib%.so}.txt 2>&1
  echo "probe $lib exit $? [$((SECONDS - T0))s]" >>$O
done
pack
for i in 1 2; do
  (cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 40 python3 -m gpuprims.bench --suites argmax_rows,topk_rows --peers torch,cupy --json $R/py_bench_$i.json) >$R/py_bench_$i.txt 2>&1
  echo "python bench $i exit $? [$((SECONDS - T0))s]" >>$O
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

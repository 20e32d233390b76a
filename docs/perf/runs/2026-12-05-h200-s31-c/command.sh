#!/usr/bin/env bash
# s31-c (2026-12-05): binaries of $1: the first GPU kernels of gp_argreduce_rows and
# gp_argreduce_segments_offsets (argreduce_segments.cu) and everything else at that
# commit. (1) The whole CTest suite at -j 12 (-E cli_install: it needs the source
# install; python_pytest runs pytest inside, torch/CuPy/JAX arrays included); s31-a's
# -j 4 ran out of its 280 s at test 43 of 54. (2) memcheck of test_argreduce_gpu
# (quick: no 2^27 case). (3) The benches: C against cub::DeviceSegmentedReduce::ArgMax
# (rows and offsets, f32/f64, 2^24 and 2^26, device memory), Python against
# torch.argmax(dim=1) / cupy.argmax(axis=1). (4) racecheck of test_topk_rows_gpu (quick),
# s28's gap, which did not finish in s31-a's 45 s.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s31.tar.xz
[ "$(realpath .)" = /work/main ] || { mkdir -p /work && ln -sfn "$(realpath .)" /work/main; }
B=$(realpath build); PY=$(realpath python); LIBP=$B/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; nproc; } >$O
timeout 300 ctest --test-dir build -j 12 -E cli_install --output-on-failure --timeout 280 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
grep -E "test_argreduce_gpu|python_pytest|cli_reduce" $R/ctest.log >>$O
pack
(cd $B && GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_argreduce_gpu) >$R/memcheck_argreduce.log 2>&1
echo "memcheck test_argreduce_gpu (quick) exit $? [$((SECONDS - T0))s] $(grep -h SUMMARY $R/memcheck_argreduce.log | tail -1) $(tail -n 1 $R/memcheck_argreduce.log)" >>$O
pack
timeout 120 $B/gpuprims bench reduce --op argmax --rows 16,128,1024,8192,65536,2^20 --offsets uniform,powerlaw,large,mix,one --n 2^24,2^26 --dtype f32,f64 --max-time 0.05 --quiet --json $R/bench_argseg.json >$R/bench_argseg.txt 2>&1
echo "bench reduce argmax rows/offsets exit $? [$((SECONDS - T0))s]" >>$O
pack
(cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 60 python3 -m gpuprims.bench --suites argmax_rows --peers torch,cupy --json $R/py_argmax_rows.json) >$R/py_argmax_rows.txt 2>&1
echo "python bench argmax_rows exit $? [$((SECONDS - T0))s]" >>$O
pack
(cd $B && GP_TEST_QUICK=1 timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 ./test_topk_rows_gpu) >$R/racecheck_topk_rows.log 2>&1
echo "racecheck test_topk_rows_gpu (quick) exit $? [$((SECONDS - T0))s] $(grep -h SUMMARY $R/racecheck_topk_rows.log | tail -1) $(tail -n 1 $R/racecheck_topk_rows.log)" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack

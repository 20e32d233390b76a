#!/usr/bin/env bash
# s31-b (2026-12-05): binaries of $1: the first GPU kernels of gp_argreduce_rows and
# gp_argreduce_segments_offsets (argreduce_segments.cu). test_argreduce_gpu, its
# memcheck (quick: no 2^27 case), the CLI test (cli_reduce: --backend cuda --rows), the
# Python GPU-array tests (torch, CuPy, JAX), then the benches: C against
# cub::DeviceSegmentedReduce::ArgMax (rows and offsets, f32/f64, 2^24 and 2^26, device
# memory) and Python against torch.argmax(dim=1) / cupy.argmax(axis=1).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s31.tar.xz
[ "$(realpath .)" = /work/main ] || { mkdir -p /work && ln -sfn "$(realpath .)" /work/main; }
B=$(realpath build); PY=$(realpath python); LIBP=$B/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; } >$O
(cd $B && timeout 120 ./test_argreduce_gpu) >$R/test_argreduce_gpu.log 2>&1
echo "test_argreduce_gpu exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/test_argreduce_gpu.log)" >>$O
grep -m 20 FAIL $R/test_argreduce_gpu.log >>$O
pack
(cd $B && GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_argreduce_gpu) >$R/memcheck_argreduce.log 2>&1
echo "memcheck test_argreduce_gpu (quick) exit $? [$((SECONDS - T0))s] $(grep -h SUMMARY $R/memcheck_argreduce.log | tail -1) $(tail -n 1 $R/memcheck_argreduce.log)" >>$O
pack
timeout 60 ctest --test-dir build -R "cli_reduce|test_argreduce$" --output-on-failure >$R/ctest_cli.log 2>&1
echo "ctest cli_reduce, test_argreduce exit $? [$((SECONDS - T0))s] $(grep 'tests passed' $R/ctest_cli.log)" >>$O
(cd python && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 100 python3 -m pytest -q -rs -p no:cacheprovider tests/test_gpu_arrays.py) >$R/pytest_gpu.log 2>&1
echo "pytest test_gpu_arrays exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/pytest_gpu.log)" >>$O
pack
timeout 150 $B/gpuprims bench reduce --op argmax --rows 16,128,1024,8192,65536,2^20 --offsets uniform,powerlaw,large,mix,one --n 2^24,2^26 --dtype f32,f64 --max-time 0.05 --quiet --json $R/bench_argseg.json >$R/bench_argseg.txt 2>&1
echo "bench reduce argmax rows/offsets exit $? [$((SECONDS - T0))s]" >>$O
pack
(cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 90 python3 -m gpuprims.bench --suites argmax_rows --peers torch,cupy --json $R/py_argmax_rows.json) >$R/py_argmax_rows.txt 2>&1
echo "python bench argmax_rows exit $? [$((SECONDS - T0))s]" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack

#!/usr/bin/env bash
# s31-d (2026-12-05): binaries of $1: argreduce_segments.cu with chunks of 1024..8192
# elements (gp_as_chunk_for) where s31-c had 8192 always. With the session's last device
# minutes: test_argreduce_gpu, pytest (torch/CuPy/JAX arrays), the CLI tests s31-c's
# CTest did not reach, then the arg-max benches as in s31-c.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s31.tar.xz
[ "$(realpath .)" = /work/main ] || { mkdir -p /work && ln -sfn "$(realpath .)" /work/main; }
B=$(realpath build); PY=$(realpath python); LIBP=$B/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; } >$O
(cd $B && timeout 150 ./test_argreduce_gpu) >$R/test_argreduce_gpu.log 2>&1
echo "test_argreduce_gpu exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/test_argreduce_gpu.log)" >>$O
grep -m 20 FAIL $R/test_argreduce_gpu.log >>$O
pack
(cd python && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 100 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1
echo "pytest exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/pytest.log)" >>$O
pack
timeout 90 ctest --test-dir build -j 4 -R "cli_reduce|cli_sort|cli_embed|cli_robust" --output-on-failure --timeout 80 >$R/ctest_cli.log 2>&1
echo "ctest cli exit $? [$((SECONDS - T0))s] $(grep 'tests passed' $R/ctest_cli.log)" >>$O
pack
timeout 60 $B/gpuprims bench reduce --op argmax --rows 16,128,1024,8192,65536,2^20 --offsets uniform,powerlaw,large,mix,one --n 2^24,2^26 --dtype f32,f64 --max-time 0.05 --quiet --json $R/bench_argseg.json >$R/bench_argseg.txt 2>&1
echo "bench reduce argmax rows/offsets exit $? [$((SECONDS - T0))s]" >>$O
pack
(cd /tmp && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 40 python3 -m gpuprims.bench --suites argmax_rows --peers torch,cupy --json $R/py_argmax_rows.json) >$R/py_argmax_rows.txt 2>&1
echo "python bench argmax_rows exit $? [$((SECONDS - T0))s]" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack

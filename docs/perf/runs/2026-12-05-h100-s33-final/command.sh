#!/usr/bin/env bash
# s33-final (2026-12-05): binaries of $1 built here for sm_90 and carried (s33b.tar.xz):
# the session's last code (vsort's 8-byte networks, the Python torch adapter's
# new_empty, the load16.cuh experiment taken out: the GPU code is s33-a's). Cut to fit
# the 360 s of device time left: (1) pytest -rs (torch, CuPy, JAX); (2) the variant
# `hyb` (argreduce_segments.cu with rows of 16384+ elements split into chunks of
# 1024 .. 8192, about 16384 a call; offsets as committed): its test_argreduce_gpu (whole,
# then memcheck quick) and the arg-max rows bench against CUB beside the committed
# kernel, two rounds; (3) scripts/python_spread_probe.py with the library as committed
# and `oldtopk` (topk.c before its select path stopped waiting).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s33b.tar.xz
[ "$(realpath .)" = /work/main ] || { mkdir -p /work && ln -sfn "$(realpath .)" /work/main; }
REPO=$(realpath .); B=$REPO/build; PY=$REPO/python; LIBP=$B/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime; nproc; } >$O
(cd $PY && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 60 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1
echo "pytest exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/pytest.log)" >>$O
grep -E "^SKIPPED|FAILED" $R/pytest.log | head -20 >>$O
pack
(cd $B && timeout 40 ./test_argreduce_gpu_hyb) >$R/test_argreduce_hyb.log 2>&1
echo "test_argreduce_gpu_hyb exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/test_argreduce_hyb.log)" >>$O
(cd $B && GP_TEST_QUICK=1 timeout 20 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_argreduce_gpu_hyb) >$R/memcheck_argreduce_hyb.log 2>&1
echo "memcheck test_argreduce_gpu_hyb (quick) exit $? [$((SECONDS - T0))s] $(grep -h SUMMARY $R/memcheck_argreduce_hyb.log | tail -1)" >>$O
for v in gpuprims gpuprims_hyb gpuprims gpuprims_hyb; do
  timeout 15 $B/$v bench reduce --op argmax --rows 2048,8192,16384,32768,65536,2^20 --n 2^24,2^26 --dtype f32,f64 --max-time 0.05 --quiet --json $R/bench_rows_$v.$SECONDS.json >>$R/bench_rows_$v.txt 2>&1
  echo "bench argmax rows $v exit $? [$((SECONDS - T0))s]" >>$O
done
pack
for lib in libgpuprims.so libgpuprims_oldtopk.so; do
  (cd /tmp && GPUPRIMS_LIBRARY=$B/$lib PYTHONPATH=$PY timeout 25 python3 $REPO/scripts/python_spread_probe.py) >>$R/probe_${lib%.so}.txt 2>&1
  echo "probe $lib exit $? [$((SECONDS - T0))s]" >>$O
done
pack
echo "[$((SECONDS - T0))s] done" >>$O; pack

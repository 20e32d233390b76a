#!/usr/bin/env bash
# Third GPU call of the fourteenth session (2026-12-02): binaries of commit $1 in
# c14c.tar.xz (Release, sm_90) with variants of the exact SUM's main loop
# (scripts/variant_build.sh: u6/u8 = GP_XS_UNROLL 6/8 loads a thread, cg = a contiguous
# range of tiles a block, cg6 = both) and of the row sums (rb: rows of >= 4096 elements
# a block each instead of a warp); the variants are the gpuprims binary alone, the tests
# run on the default build.
# Benches alternated in two rounds; then bench host (scalar results) and the Python sum
# suite against torch/cupy. Everything into $OUT/r.tgz.
set -u
R=/tmp/r; mkdir -p $R
tar xf c14c.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; cat /proc/loadavg; } >$R/summary.txt
timeout 60 $B/test_reduce_exact_gpu >$R/test_exact.txt 2>&1; echo "test_reduce_exact_gpu exit $? ($(tail -1 $R/test_exact.txt))" >>$R/summary.txt
timeout 60 $B/test_reduce_segments_gpu >$R/test_seg.txt 2>&1; echo "test_reduce_segments_gpu exit $? ($(tail -1 $R/test_seg.txt))" >>$R/summary.txt
N=2^16,2^20,2^22,2^24,2^25,2^26,2^28,2^30
for r in 1 2; do
  for v in new u6 u8 cg cg6; do
    g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
    timeout 60 $g bench reduce --dtype f32,f64 --op sum --n $N --max-time 0.12 --quiet --json $R/sum_${v}_r$r.json >$R/sum_${v}_r$r.txt 2>&1
    echo "sum $v r$r exit $?" >>$R/summary.txt
  done
  for v in new rb; do
    g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
    timeout 60 $g bench reduce --dtype f32,f64 --op sum --rows 4096,8192,16384 --n 2^26 --max-time 0.12 --quiet --json $R/rows_${v}_r$r.json >$R/rows_${v}_r$r.txt 2>&1
    echo "rows $v r$r exit $?" >>$R/summary.txt
  done
done
timeout 60 $B/gpuprims bench host --big 0 --json $R/host.json >$R/host.txt 2>&1; echo "bench host exit $?" >>$R/summary.txt
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 90 python3 -m gpuprims.bench --suites sum,overhead --json $R/py_sum.json) >$R/py_sum.txt 2>&1; echo "py sum exit $?" >>$R/summary.txt
tar czf $OUT/r.tgz -C /tmp r
cat $R/summary.txt

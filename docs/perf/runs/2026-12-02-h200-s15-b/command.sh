#!/usr/bin/env bash
# Second GPU call of the fifteenth session (2026-12-02): binaries in c15b.tar.xz (Release,
# sm_90): the working tree on top of commit $1 (F32 chains by gp_xs_carry_add) and
# *_head (reduce_exact.cu of $1). Tests of the exact SUM on both, memcheck (quick), then
# probe_data.py (this folder) with each library and `gpuprims bench reduce` of F32 SUM
# with each CLI, alternated.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
tar xf c15b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "tree on ${1:-?}"; } >$O
for t in test_reduce_exact_gpu test_reduce_exact_gpu_head test_reduce_gpu test_reduce_segments_gpu test_reduce_exact; do
  timeout 120 $B/$t >$R/$t.log 2>&1; echo "$t exit $? ($(tail -1 $R/$t.log))" >>$O
done
GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/san.log 2>&1
echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(tail -1 $R/san.log))" >>$O
echo "[$((SECONDS - T0))s] probes" >>$O
export PYTHONPATH=$PWD/python
P=docs/perf/runs/2026-12-02-h200-s15-b/probe_data.py
for v in new head; do
  lib=$(realpath $B)/libgpuprims.so; [ $v = head ] && lib=$(realpath $B)/libgpuprims_head.so
  echo "== $v ($lib)" >>$R/probe.txt
  GPUPRIMS_LIBRARY=$lib timeout 150 python3 $P 3 >>$R/probe.txt 2>&1
done
echo "[$((SECONDS - T0))s] bench" >>$O
N=2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30
for r in 1 2; do for v in gpuprims gpuprims_head; do
  [ $((SECONDS - T0)) -lt 500 ] && timeout 100 $B/$v bench reduce --dtype f32 --op sum --n $N --max-time 0.3 --quiet --json $R/bench_${v}_$r.json >$R/bench_${v}_$r.txt 2>&1
done; done
echo "[$((SECONDS - T0))s] done" >>$O
tar czf $OUT/r.tgz -C /tmp r
cat $O $R/probe.txt
for f in $R/bench_*.txt; do echo "== $f"; cat $f; done

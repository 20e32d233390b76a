#!/usr/bin/env bash
# Sixth GPU call of the fifteenth session (2026-12-02): binaries of commit $1 (Release,
# sm_90) in c15f.tar.xz, with gpuprims_head / libgpuprims_head.so (reduce_exact.cu of
# 571667c). Tests of the sums,
# memcheck (quick), then `gpuprims bench reduce` F32 SUM on each data law,
# new and old alternated (uniform: twice), and s15-b's probe_data.py with the new library.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
tar xf c15f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_reduce_exact_gpu test_reduce_gpu test_reduce_segments_gpu; do
  timeout 120 $B/$t >$R/$t.log 2>&1; echo "$t exit $? ($(tail -1 $R/$t.log))" >>$O
done
GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/san.log 2>&1
echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(tail -1 $R/san.log))" >>$O
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
echo "[$((SECONDS - T0))s] bench" >>$O
run() { # name binary args...
  local f=$R/$1; shift
  [ $((SECONDS - T0)) -lt 470 ] && timeout 100 "$@" --max-time 0.25 --quiet --json $f.json >$f.txt 2>&1
}
N=2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30
for v in gpuprims gpuprims_head gpuprims_head gpuprims; do run uni_${v}_$((SECONDS)) $B/$v bench reduce --dtype f32 --n $N; done
for d in normal lognormal wide; do for v in gpuprims gpuprims_head; do
  run ${d}_$v $B/$v bench reduce --dtype f32 --n 2^16,2^20,2^24,2^28 --data $d
done; done
echo "[$((SECONDS - T0))s] probe" >>$O
export PYTHONPATH=$PWD/python GPUPRIMS_LIBRARY=$(realpath $B)/libgpuprims.so
[ $((SECONDS - T0)) -lt 480 ] && timeout 100 python3 docs/perf/runs/2026-12-02-h200-s15-b/probe_data.py 2 >$R/probe.txt 2>&1
echo "[$((SECONDS - T0))s] done" >>$O
tar czf $OUT/r.tgz -C /tmp r
cat $O $R/probe.txt
for f in $R/*.txt; do case $f in *summary*|*probe*) continue;; esac
  echo "== $(basename $f)"; awk '/^gpuprims/{r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; printf "%s %s%s %s | ", $6, $10, $11, r}' $f; echo; done

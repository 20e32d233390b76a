#!/usr/bin/env bash
# First GPU call of the sixteenth session (2026-12-03): binaries (Release, sm_90) in
# c16a.tar.xz: the working tree's (dense steps for warps whose lanes go out of line,
# GP_XS_DENSE_AFTER=8), gpuprims_d0 (the same with GP_XS_DENSE_AFTER=0) and
# gpuprims_head (reduce_exact.cu of ce70a4c, the session's start). Tests of the sums,
# compute-sanitizer racecheck / synccheck / memcheck (quick) on the exact and row sums,
# then `gpuprims bench reduce` F32 and F64 SUM on each data law, the three alternated.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
tar xf c16a.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_reduce_exact_gpu test_reduce_gpu test_reduce_segments_gpu; do
  timeout 150 $B/$t >$R/$t.log 2>&1; echo "$t exit $? ($(tail -1 $R/$t.log))" >>$O
done
GPUPRIMS_DIST_TIMEOUT=60 timeout 100 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
for tool in racecheck synccheck memcheck; do for t in test_reduce_exact_gpu test_reduce_segments_gpu; do
  [ $((SECONDS - T0)) -lt 330 ] || { echo "$tool $t: not run (time)" >>$O; continue; }
  GP_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/$t >$R/san_${tool}_$t.log 2>&1
  echo "[$((SECONDS - T0))s] $tool $t (quick) exit $? ($(tail -1 $R/san_${tool}_$t.log))" >>$O
done; done
echo "[$((SECONDS - T0))s] bench" >>$O
run() { # name binary args...
  local f=$R/$1; shift
  [ $((SECONDS - T0)) -lt 540 ] && timeout 60 "$@" --max-time 0.2 --quiet --json $f.json >$f.txt 2>&1
}
for t in f32 f64; do for d in wide lognormal normal uniform; do for v in gpuprims gpuprims_head gpuprims_d0; do
  run ${t}_${d}_$v $B/$v bench reduce --dtype $t --n 2^12,2^16,2^20,2^24,2^28 --data $d
done; done; done
echo "[$((SECONDS - T0))s] done" >>$O
tar czf $OUT/r.tgz -C /tmp r
cat $O
for f in $R/*.txt; do case $f in *summary*) continue;; esac
  echo "== $(basename $f)"; awk '/^gpuprims/{r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; printf "%s %s%s %s | ", $6, $10, $11, r}' $f; echo; done

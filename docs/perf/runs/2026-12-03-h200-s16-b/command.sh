#!/usr/bin/env bash
# Second GPU call of the sixteenth session (2026-12-03): binaries (Release, sm_90) in
# c16b.tar.xz: the working tree's (dense steps for F32, and for F64 above the window's
# sizes, a warp switching after a vote), gpuprims_lane (each lane switching alone,
# GP_XS_DENSE_VOTE=0), gpuprims_always (F32 dense from the start, GP_XS_DENSE_ALWAYS=1)
# and gpuprims_head (reduce_exact.cu of ce70a4c). Tests of the sums, racecheck of the
# exact sum's test (quick), then `gpuprims bench reduce` on each data law, alternated.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
tar xf c16b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_reduce_exact_gpu test_reduce_gpu; do
  timeout 150 $B/$t >$R/$t.log 2>&1; echo "[$((SECONDS - T0))s] $t exit $? ($(tail -1 $R/$t.log))" >>$O
done
GPUPRIMS_DIST_TIMEOUT=60 timeout 100 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
echo "[$((SECONDS - T0))s] bench" >>$O
run() { # name binary args...
  local f=$R/$1; shift
  [ $((SECONDS - T0)) -lt 300 ] && timeout 60 "$@" --max-time 0.2 --quiet --json $f.json >$f.txt 2>&1
}
for r in 1 2; do for v in gpuprims gpuprims_head gpuprims_lane gpuprims_always; do
  run f32_uniform_${v}_r$r $B/$v bench reduce --dtype f32 --n 2^10,2^12,2^16,2^20,2^24,2^28 --data uniform
done; done
for d in wide normal lognormal; do for v in gpuprims gpuprims_head gpuprims_lane gpuprims_always; do
  run f32_${d}_$v $B/$v bench reduce --dtype f32 --n 2^12,2^16,2^20,2^24,2^28 --data $d
done; done
for v in gpuprims gpuprims_head; do
  run f64_uniform_$v $B/$v bench reduce --dtype f64 --n 2^12,2^20,2^24,2^26,2^28 --data uniform
  run f64_wide_$v $B/$v bench reduce --dtype f64 --n 2^24,2^26,2^28 --data wide
done
echo "[$((SECONDS - T0))s] racecheck" >>$O
GP_TEST_QUICK=1 timeout 280 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/san_racecheck.log 2>&1
echo "[$((SECONDS - T0))s] racecheck test_reduce_exact_gpu (quick) exit $? ($(tail -1 $R/san_racecheck.log))" >>$O
tar czf $OUT/r.tgz -C /tmp r
cat $O
for f in $R/*.txt; do case $f in *summary*) continue;; esac
  echo "== $(basename $f)"; awk '/^gpuprims/{r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; u=$10; if ($10 ~ /^\[/) u=$11 $12; else u=$10 $11; printf "%s %s %s | ", $6, u, r}' $f; echo; done

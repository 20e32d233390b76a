#!/usr/bin/env bash
# Fifth GPU call of the sixteenth session (2026-12-03): binaries (Release, sm_90) in
# c16e.tar.xz: the working tree's (F32 dense steps from the start, GP_XS_F32_DENSE=1),
# gpuprims_vote (F32 after the warp's vote, as 426875d: GP_XS_F32_DENSE=0) and
# gpuprims_head (reduce_exact.cu of ce70a4c). The exact sum's tests, then F32 benches
# on each law, the three alternated (uniform: two rounds).
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
tar xf c16e.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_reduce_exact_gpu test_reduce_gpu; do
  timeout 150 $B/$t >$R/$t.log 2>&1; echo "[$((SECONDS - T0))s] $t exit $? ($(tail -1 $R/$t.log))" >>$O
done
GPUPRIMS_DIST_TIMEOUT=60 timeout 100 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "[$((SECONDS - T0))s] test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
run() { # name binary args...
  local f=$R/$1; shift
  [ $((SECONDS - T0)) -lt 220 ] && timeout 60 "$@" --max-time 0.2 --quiet --json $f.json >$f.txt 2>&1
}
for r in 1 2; do for v in gpuprims gpuprims_vote gpuprims_head; do
  run f32_uniform_${v}_r$r $B/$v bench reduce --dtype f32 --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28 --data uniform
done; done
for d in wide normal lognormal; do for v in gpuprims gpuprims_vote gpuprims_head; do
  run f32_${d}_$v $B/$v bench reduce --dtype f32 --n 2^12,2^16,2^20,2^24,2^28 --data $d
done; done
echo "[$((SECONDS - T0))s] done" >>$O
tar czf $OUT/r.tgz -C /tmp r
cat $O
for f in $R/*.txt; do case $f in *summary*) continue;; esac
  echo "== $(basename $f)"; awk '/^gpuprims/{r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; u=$10 $11; if ($10 ~ /^\[/) u=$11 $12; printf "%s %s %s | ", $6, u, r}' $f; echo; done

#!/usr/bin/env bash
# Fourth GPU call of the sixteenth session (2026-12-03): binaries (Release, sm_90) of
# 426875d in c16d.tar.xz (F64 dense steps: the head's error carried into l, l's into a
# third part lo), with gpuprims_head (reduce_exact.cu of ce70a4c). The exact sum's test
# in full, test_dist_gpu p1, then benches on each law, alternated.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
tar xf c16d.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 150 $B/test_reduce_exact_gpu >$R/test_reduce_exact_gpu.log 2>&1; echo "[$((SECONDS - T0))s] test_reduce_exact_gpu exit $? ($(tail -1 $R/test_reduce_exact_gpu.log))" >>$O
GPUPRIMS_DIST_TIMEOUT=60 timeout 100 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "[$((SECONDS - T0))s] test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
run() { # name binary args...
  local f=$R/$1; shift
  [ $((SECONDS - T0)) -lt 200 ] && timeout 60 "$@" --max-time 0.2 --quiet --json $f.json >$f.txt 2>&1
}
for v in gpuprims gpuprims_head; do
  for d in wide normal uniform; do run f64_${d}_$v $B/$v bench reduce --dtype f64 --n 2^20,2^24,2^26,2^28 --data $d; done
  for d in wide lognormal; do run f32_${d}_$v $B/$v bench reduce --dtype f32 --n 2^16,2^20,2^24,2^26,2^28 --data $d; done
done
echo "[$((SECONDS - T0))s] done" >>$O
tar czf $OUT/r.tgz -C /tmp r
cat $O
for f in $R/*.txt; do case $f in *summary*) continue;; esac
  echo "== $(basename $f)"; awk '/^gpuprims/{r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; u=$10 $11; if ($10 ~ /^\[/) u=$11 $12; printf "%s %s %s | ", $6, u, r}' $f; echo; done

#!/usr/bin/env bash
# Second GPU call of the seventh session (2026-12-02): the exact SUM's window fold.
# Binaries of the commit in summary.txt (Release, sm_90) carried as xs.tar.xz: gpuprims
# (window fold + untested tiles, the default), gpuprims_xsfold (window fold only,
# -DGP_XS_SPEC=0) and gpuprims_xsold (neither: the code before, -DGP_XS_INT_FOLD=0
# -DGP_XS_SPEC=0), built by scripts/variant_build.sh. First the A/B bench beside CUB
# (two rounds, alternated), then the reduction tests and compute-sanitizer.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf xs.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; cat /proc/loadavg; } >>$OUT/summary.txt
s bench
for r in 1 2; do for v in "" _xsfold _xsold; do
  timeout 60 $B/gpuprims$v bench reduce --max-time 0.2 --quiet --dtype f32,f64 --op sum \
    --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30 --json $L/sum${v}_r$r.json >$L/sum${v}_r$r.txt 2>&1
  echo "bench$v round $r exit $?" >>$OUT/summary.txt
done; done
s ncu
for c in "f64 2^16" "f64 2^20" "f32 2^20"; do set -- $c
  timeout 60 ncu --clock-control none --set full -k regex:gp_sum_exact -c 1 \
    $B/gpuprims bench reduce --quiet --dtype $1 --op sum --n $2 --no-peers --min-samples 1 --max-samples 1 --warmup 0 \
    >$L/ncu_$1_${2#2^}.txt 2>&1
done
s tests
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
{ printf '%s\n' "memcheck test_reduce_exact_gpu 1 250" "racecheck test_reduce_exact_gpu 1 250" \
  "synccheck test_reduce_exact_gpu 1 250" "memcheck test_reduce_gpu 1 250" | xargs -P 4 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1; } &
SP=$!
for t in test_reduce_exact_gpu test_reduce_gpu test_reduce_segments_gpu; do
  timeout 200 $B/$t >$L/$t.log 2>&1; echo "$t exit $? ($(tail -1 $L/$t.log))" >>$OUT/summary.txt
done
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$L/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $L/dist_p1.log))" >>$OUT/summary.txt
s "waiting for sanitizers"
wait $SP
cat $L/san_summary.txt >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# First GPU call of the eighth session (2026-12-02): where the correctly rounded SUM's
# time goes at mid sizes. gpuprims_trK: reduce_exact.cu with trace.patch (each block's
# thread 0 stamps %globaltimer at entry, after the main loop, after the fold, after its
# ticket; the last block prints a summary every 32nd call) and the grid divided by K
# (GP_XS_GRID_DIV). Then ncu of the kernel as built (F64 2^18, 2^20, F32 2^20), then
# verification of HEAD's binaries: test_dist_gpu p1 and compute-sanitizer over suites
# that had no sanitizer run in the seventh session.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c1.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s trace
N="--n 2^16,2^18,2^20,2^22,2^24"
for r in 1 2; do for v in tr1 tr2 tr4; do
  timeout 60 $B/gpuprims_$v bench reduce --max-time 0.15 --quiet --dtype f32,f64 --op sum $N --json $L/${v}_r$r.json >$L/${v}_r$r.txt 2>&1
  echo "$v round $r exit $?" >>$OUT/summary.txt
done; done
timeout 60 $B/gpuprims bench reduce --max-time 0.15 --quiet --dtype f32,f64 --op sum $N --json $L/head.json >$L/head.txt 2>&1
echo "head exit $?" >>$OUT/summary.txt
s ncu
for c in "f64 2^18" "f64 2^20" "f32 2^20" "f64 2^22"; do set -- $c; tag=${1}_${2#2^}
  timeout 120 ncu --clock-control none --kernel-name regex:gp_sum_exact --launch-skip 5 --launch-count 1 --set full --import-source yes \
    -o $L/ncu_$tag $B/gpuprims bench reduce --max-time 0.02 --min-samples 8 --quiet --no-peers --dtype $1 --op sum --n $2 >$L/ncu_$tag.txt 2>&1
  echo "ncu $tag exit $?" >>$OUT/summary.txt
  ncu --import $L/ncu_$tag.ncu-rep --page details >$L/ncu_${tag}_details.txt 2>&1
  ncu --import $L/ncu_$tag.ncu-rep --page source --csv --print-source sass >$L/ncu_${tag}_sass.csv 2>&1
done
s verify
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$L/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $L/dist_p1.log))" >>$OUT/summary.txt
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
printf '%s\n' "racecheck test_reduce_gpu 1 330" "memcheck test_reduce_segments_gpu 1 330" "memcheck test_argreduce_gpu 1 330" \
  "memcheck test_topk_rows_gpu 1 330" "memcheck test_host_memory_gpu 1 330" "memcheck test_integrate_gpu 1 330" \
  "memcheck test_gpu_kernels 1 330" "racecheck test_reduce_segments_gpu 1 330" \
  | xargs -P 8 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1
cat $L/san_summary.txt >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Second GPU call of the eighth session (2026-12-02): the exact SUM's knobs A/B.
# gpuprims_aK: GP_XS_ACCS=K superaccumulators a block (8: one a warp, as in HEAD),
# r4: GP_XS_REC_REGS=4 (the last block reads up to 1024 records once, into registers),
# t2: GP_XS_MIN_TILES=2. gpuprims_taX: the same with trace.patch (globaltimer stamps per
# block and inside the window fold; the last block prints a summary every 32nd call).
# Then the reduce tests and compute-sanitizer against the candidates.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c2.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ab
N="--n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28"
for r in 1 2; do for v in "" _a1 _a2 _a4 _a8r4 _a1r4 _a1r4t2; do
  p=--no-peers; [ -z "$v" ] && p=
  timeout 60 $B/gpuprims$v bench reduce --max-time 0.15 --quiet $p --dtype f32,f64 --op sum $N --json $L/ab${v:-_head}_r$r.json >$L/ab${v:-_head}_r$r.txt 2>&1
  echo "ab${v:-_head} round $r exit $?" >>$OUT/summary.txt
done; done
s trace
for v in ta8 ta1 ta1r4; do
  timeout 60 $B/gpuprims_$v bench reduce --max-time 0.15 --quiet --no-peers --dtype f32,f64 --op sum --n 2^16,2^18,2^20,2^22,2^24 >$L/$v.txt 2>&1
  echo "$v exit $?" >>$OUT/summary.txt
done
s "tests + sanitizers"
run1() { timeout 240 $B/$1 >$L/$1.log 2>&1; echo "$1 exit $? ($(tail -1 $L/$1.log))"; }
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san run1; export B L
printf '%s\n' "run1 test_reduce_exact_gpu_a1r4" "run1 test_reduce_gpu_a1r4" "run1 test_reduce_exact_gpu_a1r4t2" \
  "run1 test_reduce_gpu_a1r4t2" "run1 test_reduce_exact_gpu_a1" "run1 test_reduce_gpu_a1" \
  "san memcheck test_reduce_exact_gpu_a1r4 1 240" "san racecheck test_reduce_exact_gpu_a1r4 1 240" \
  "san synccheck test_reduce_exact_gpu_a1r4 1 240" "san memcheck test_reduce_gpu_a1r4 1 240" \
  | xargs -P 10 -L 1 bash -c '"$@"' _ >$L/san_summary.txt 2>&1
cat $L/san_summary.txt >>$OUT/summary.txt
s done
save

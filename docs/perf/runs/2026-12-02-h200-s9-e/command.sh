#!/usr/bin/env bash
# Fifth GPU call of the ninth session (2026-12-02): argreduce.cu variants on the commit in
# summary.txt (Release, sm_90), in c5.tar.xz: gpuprims_argprev (argreduce.cu of 0030eb6:
# the last block takes its partials one load at a time), gpuprims (the last block's four
# loads in flight, GP_ARG_LAST_LOADS=4), gpuprims_it2 / gpuprims_it4 (the same with
# -DGP_ARG_MIN_ITERS=2 / 4: half / a quarter of the blocks below a resident grid).
# test_argreduce_gpu of each variant and memcheck of the new one, then the A/B (two
# rounds alternated, CUB in the new binary's rounds).
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c5.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s tests
for v in "" _argprev _it2 _it4; do
  timeout 100 $B/test_argreduce_gpu$v >$L/test_argreduce_gpu$v.log 2>&1
  echo "test_argreduce_gpu$v exit $? ($(tail -1 $L/test_argreduce_gpu$v.log))" >>$OUT/summary.txt
done &
TP=$!
GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_argreduce_gpu >$L/san_memcheck.log 2>&1 &
SP=$!
wait $TP
wait $SP
echo "memcheck test_argreduce_gpu (quick) exit $? ($(tail -1 $L/san_memcheck.log))" >>$OUT/summary.txt
s ab
N="--n 2^18,2^20,2^21,2^22,2^23,2^24,2^26"
for r in 1 2; do for v in "" _argprev _it2 _it4; do
  p=--no-peers; [ -z "$v" ] && p=
  timeout 60 $B/gpuprims$v bench reduce --max-time 0.1 --quiet $p --dtype f32,i32 --op argmax $N --json $L/arg${v:-_new}_r$r.json >$L/arg${v:-_new}_r$r.txt 2>&1
  echo "arg${v:-_new} round $r exit $?" >>$OUT/summary.txt
done; done
s done
save

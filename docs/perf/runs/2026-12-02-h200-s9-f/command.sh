#!/usr/bin/env bash
# Sixth (last) GPU call of the ninth session (2026-12-02): binaries of the commit in
# summary.txt (Release, sm_90) in c6.tar.xz: gpuprims with argreduce.cu's grid rule
# (GP_ARG_GRID_RULE=1), gpuprims_rule0 (-DGP_ARG_GRID_RULE=0: s9-e's new code).
# test_argreduce_gpu and its memcheck, then the A/B (two rounds alternated, CUB in the
# new binary's rounds).
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c6.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s tests
timeout 100 $B/test_argreduce_gpu >$L/test_argreduce_gpu.log 2>&1
echo "test_argreduce_gpu exit $? ($(tail -1 $L/test_argreduce_gpu.log))" >>$OUT/summary.txt &
GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_argreduce_gpu >$L/san_memcheck.log 2>&1
echo "memcheck test_argreduce_gpu (quick) exit $? ($(tail -1 $L/san_memcheck.log))" >>$OUT/summary.txt
wait
s ab
N="--n 2^18,2^20,2^21,2^22,2^23,2^24,2^25,2^26"
for r in 1 2; do for v in "" _rule0; do
  p=--no-peers; [ -z "$v" ] && p=
  timeout 60 $B/gpuprims$v bench reduce --max-time 0.1 --quiet $p --dtype f32,i32,f64 --op argmax $N --json $L/arg${v:-_new}_r$r.json >$L/arg${v:-_new}_r$r.txt 2>&1
  echo "arg${v:-_new} round $r exit $?" >>$OUT/summary.txt
done; done
s done
save

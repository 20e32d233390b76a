#!/usr/bin/env bash
# Sixth GPU call of the sixth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90). Size classes within the GPU's shared memory: the radix and bitonic
# sort suites as on a 99 KiB GPU (GPUPRIMS_FORCE_ARCH=89) and as they are, in parallel.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
tar xf gpubin.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; } >>$OUT/summary.txt
GPUPRIMS_FORCE_ARCH=89 timeout 150 $B/test_sort_radix_gpu >$L/radix_sm89.log 2>&1 & p1=$!
GPUPRIMS_FORCE_ARCH=89 GP_TEST_QUICK=1 timeout 150 $B/test_sort_gpu >$L/sort_sm89.log 2>&1 & p2=$!
GPUPRIMS_FORCE_ARCH=89 GP_TEST_QUICK=1 timeout 150 $B/test_topk_rows_gpu >$L/topk_rows_sm89.log 2>&1 & p3=$!
timeout 150 $B/test_sort_radix_gpu >$L/radix.log 2>&1 & p4=$!
GP_TEST_QUICK=1 timeout 150 $B/test_topk_rows_gpu >$L/topk_rows.log 2>&1 & p5=$!
$B/test_radix_scratch >$L/scratch.log 2>&1; echo "test_radix_scratch exit $? ($(tail -1 $L/scratch.log))" >>$OUT/summary.txt
for p in "$p1 radix_sm89" "$p2 sort_sm89" "$p3 topk_rows_sm89" "$p4 radix" "$p5 topk_rows"; do
  set -- $p; wait $1; echo "$2 exit $? ($(tail -1 $L/$2.log)) [$((SECONDS - T0))s]" >>$OUT/summary.txt
done
grep -h "FAIL\|failed" $L/*.log | head -20 >>$OUT/summary.txt
cp $L/*.log $OUT/

#!/usr/bin/env bash
# s20-review (2026-12-03): after the review's host-only change to rank_sort.cu (rk_pick
# through rk_fits), test_sort_radix_gpu in full on binaries of $1, and its sm_89 mode
# (quick). Binaries in c20r.tar.xz.
set -u
tar xf c20r.tar.xz
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/r/summary.txt
echo "binaries of ${1:-?}" | tee -a $OUT/r/summary.txt
timeout 200 build/test_sort_radix_gpu >$OUT/r/full.log 2>&1; echo "test_sort_radix_gpu exit $? ($(tail -1 $OUT/r/full.log))" | tee -a $OUT/r/summary.txt
GPUPRIMS_FORCE_ARCH=89 GP_TEST_QUICK=1 timeout 40 build/test_sort_radix_gpu >$OUT/r/sm89.log 2>&1; echo "test_sort_radix_gpu (sm_89 mode, quick) exit $? ($(tail -1 $OUT/r/sm89.log))" | tee -a $OUT/r/summary.txt

#!/usr/bin/env bash
# s26-d (2026-12-04, twenty-sixth session): gpuprims = $1's build (GP_RX_WIDE_ADDR 0: the
# kernels of s26-final); gpuprims_waddr = radix.cu with -DGP_RX_WIDE_ADDR=1 (the wide
# pairs' shape keeps output addresses in shared memory, the value's at a fixed distance
# from its key's). The variant's radix test and memcheck, then u64/u64 and f64/u64 pairs
# alternated, two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26d.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 200 $B/test_sort_radix_gpu_waddr >$R/test_sort_radix_gpu_waddr.log 2>&1
echo "test_sort_radix_gpu_waddr exit $? ($(grep -h passed $R/test_sort_radix_gpu_waddr.log | tail -1)) [$((SECONDS - T0))s]" >>$O
GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu_waddr >$R/memcheck_waddr.log 2>&1
echo "memcheck test_sort_radix_gpu_waddr (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_waddr.log | tail -1); $(grep -h passed $R/memcheck_waddr.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
Q="--no-seed --no-segments --quiet"
for r in 1 2; do
  for v in gpuprims gpuprims_waddr; do
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 $Q --max-time 0.2 >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f64 --pairs u64 --sizes 2^24 $Q --max-time 0.2 >$R/pf64_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

#!/usr/bin/env bash
# s25-c (2026-12-04, twenty-fifth session): gpuprims = $1's build (one-sweep pass: digits
# by PRMT, full tiles' keys stored by an unrolled loop, 8-byte keys' order complement as
# a mask); gpuprims_b = 50c8dd8's radix.cu (s25-b's build); gpuprims_noperm =
# -DGP_RX_PERM=0; gpuprims_nofs = -DGP_RX_FULL_STORE=0; gpuprims_dm8off = -DGP_RX_DM8=0.
# Radix test and memcheck of the new build; benches alternated, two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s25c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 200 $B/test_sort_radix_gpu >$R/test_sort_radix_gpu.log 2>&1
echo "test_sort_radix_gpu exit $? ($(grep -h passed $R/test_sort_radix_gpu.log | tail -1)) [$((SECONDS - T0))s]" >>$O
GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
Q="--no-seed --no-segments --quiet"
for r in 1 2; do
  for v in gpuprims gpuprims_b gpuprims_noperm gpuprims_nofs; do
    timeout 90 $B/$v bench sort --algo auto --sizes 2^20,2^24,2^26,2^28,2^30 $Q --max-time 0.15 >$R/u32_${v}_r$r.txt 2>&1
  done
  for v in gpuprims gpuprims_b gpuprims_dm8off; do
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --sizes 2^20,2^24,2^28 $Q --max-time 0.15 >$R/u64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 $Q --max-time 0.2 >$R/p64_${v}_r$r.txt 2>&1
  done
  for v in gpuprims gpuprims_b; do
    timeout 60 $B/$v bench sort --algo auto --pairs u32 --sizes 2^20,2^24,2^28 $Q --max-time 0.15 >$R/p32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes 2^24 $Q --max-time 0.15 >$R/arg_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

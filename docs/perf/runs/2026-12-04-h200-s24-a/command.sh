#!/usr/bin/env bash
# s24-a (2026-12-04): gpuprims = 711f8e1's build (radix sort's plan, passes and fixup as
# programmatic dependent launches, GP_RX_PDL=1); gpuprims_nopdl = radix.cu with
# -DGP_RX_PDL=0 (ordinary launches). Sort tests and sanitizers of the PDL build, the
# offsets reduce test (its span launch now goes through common/pdl.cuh), benches two
# rounds alternated, ncu of one one-sweep pass at 2^28.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s24a.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_sort_radix_gpu test_sort_gpu test_reduce_segments_gpu; do
  timeout 240 $B/$t >$R/$t.log 2>&1
  echo "$t exit $? ($(grep -h passed $R/$t.log | tail -1)) [$((SECONDS - T0))s]" >>$O
done
pack
for r in 1 2; do
  for v in gpuprims gpuprims_nopdl; do
    timeout 60 $B/$v bench sort --algo auto --sizes 2^18,2^19,2^20,2^21,2^22,2^24 --no-seed --no-segments --max-time 0.1 --quiet >$R/u32_${v}_r$r.txt 2>&1
    timeout 90 $B/$v bench sort --algo auto --pairs u32 --sizes 2^20,2^24,2^28 --no-seed --no-segments --max-time 0.2 --quiet >$R/p32_${v}_r$r.txt 2>&1
    timeout 90 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^24,2^28 --no-seed --no-segments --max-time 0.3 --quiet >$R/p64_${v}_r$r.txt 2>&1
    timeout 120 $B/$v bench sort --algo auto --sizes 2^26,2^28,2^30 --no-seed --no-segments --max-time 0.3 --quiet >$R/big_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
GP_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck.log | tail -1); $(grep -h passed $R/memcheck.log | tail -1))" >>$O; pack
for tool in racecheck synccheck; do
  GP_TEST_QUICK=2 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_sort_radix_gpu >$R/$tool.log 2>&1
  echo "$tool test_sort_radix_gpu (quick 2) exit $? ($(grep -h SUMMARY $R/$tool.log | tail -1); $(grep -h passed $R/$tool.log | tail -1))" >>$O
  pack
done
timeout 90 ncu --clock-control none -k regex:rx_onesweep -s 2 -c 1 --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis $B/gpuprims bench sort --algo radix --sizes 2^28 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 1 --warmup 0 --quiet >$R/ncu_onesweep_2p28.txt 2>&1
echo "ncu exit $? [$((SECONDS - T0))s] done" >>$O; pack

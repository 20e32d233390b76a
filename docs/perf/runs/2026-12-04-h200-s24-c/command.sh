#!/usr/bin/env bash
# s24-c (2026-12-04): gpuprims = $1's build (wide upfront histogram from 2^20 keys, PDL
# trigger after the look-back); gpuprims_narrow = -DGP_RX_HIST_WIDE_LOG2=64 (the 32 KiB
# histogram blocks always); gpuprims_wl2 = -DGP_RX_HIST_WIDE_LOADS=2. Radix tests (the
# hw10 build takes the wide histogram from 2^10 keys, so every device-wide sort of the
# test does) and memcheck of hw10; benches alternated, two rounds; ncu of the histograms.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s24c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for t in test_sort_radix_gpu_hw10 test_sort_radix_gpu test_sort_gpu; do
  timeout 240 $B/$t >$R/$t.log 2>&1
  echo "$t exit $? ($(grep -h passed $R/$t.log | tail -1)) [$((SECONDS - T0))s]" >>$O
done
GP_TEST_QUICK=1 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu_hw10 >$R/memcheck_hw10.log 2>&1
echo "memcheck test_sort_radix_gpu_hw10 (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_hw10.log | tail -1); $(grep -h passed $R/memcheck_hw10.log | tail -1))" >>$O
GP_TEST_QUICK=2 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_sort_radix_gpu_hw10 >$R/racecheck_hw10.log 2>&1
echo "racecheck test_sort_radix_gpu_hw10 (quick 2) exit $? ($(grep -h SUMMARY $R/racecheck_hw10.log | tail -1); $(grep -h passed $R/racecheck_hw10.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
for r in 1 2; do
  for v in gpuprims gpuprims_narrow; do
    timeout 90 $B/$v bench sort --algo auto --sizes 2^20,2^21,2^22,2^24,2^26,2^28,2^30 --no-seed --no-segments --max-time 0.15 --quiet >$R/u32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --sizes 2^20,2^22,2^24,2^26 --no-seed --no-segments --max-time 0.15 --quiet >$R/u64_${v}_r$r.txt 2>&1
    timeout 90 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^22,2^24,2^28 --no-seed --no-segments --max-time 0.25 --quiet >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --pairs u32 --sizes 2^20,2^24,2^28 --no-seed --no-segments --max-time 0.2 --quiet >$R/p32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes 2^24 --no-seed --no-segments --max-time 0.15 --quiet >$R/arg_${v}_r$r.txt 2>&1
  done
  timeout 60 $B/gpuprims_wl2 bench sort --algo auto --sizes 2^24,2^28 --no-seed --no-segments --max-time 0.15 --quiet >$R/u32_gpuprims_wl2_r$r.txt 2>&1
  timeout 60 $B/gpuprims_wl2 bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^24 --no-seed --no-segments --max-time 0.25 --quiet >$R/p64_gpuprims_wl2_r$r.txt 2>&1
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
for v in gpuprims gpuprims_narrow; do
  timeout 60 ncu --clock-control none -k regex:rx_histogram -c 1 --section SpeedOfLight --section LaunchStats $B/$v bench sort --algo radix --sizes 2^28 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 1 --warmup 0 --quiet >$R/ncu_hist_u32_2p28_$v.txt 2>&1
  timeout 60 ncu --clock-control none -k regex:rx_histogram -c 1 --section SpeedOfLight --section LaunchStats $B/$v bench sort --algo radix --dtype u64 --pairs u64 --sizes 2^24 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 1 --warmup 0 --quiet >$R/ncu_hist_u64_2p24_$v.txt 2>&1
done
echo "ncu [$((SECONDS - T0))s] done" >>$O; pack

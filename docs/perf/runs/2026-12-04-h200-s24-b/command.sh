#!/usr/bin/env bash
# s24-b (2026-12-04): gpuprims = e2fbe17's build (PDL, a pass triggers the next at its
# start); gpuprims_trig1 = -DGP_RX_PDL_TRIGGER=1 (after its look-back); gpuprims_nopdl =
# -DGP_RX_PDL=0. Radix test of trig1; benches three rounds alternated; ncu of the u64
# histogram and one wide pass at 2^24.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s24b.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 240 $B/test_sort_radix_gpu_trig1 >$R/test_trig1.log 2>&1
echo "test_sort_radix_gpu_trig1 exit $? ($(grep -h passed $R/test_trig1.log | tail -1)) [$((SECONDS - T0))s]" >>$O
pack
for r in 1 2 3; do
  for v in gpuprims gpuprims_trig1 gpuprims_nopdl; do
    timeout 60 $B/$v bench sort --algo auto --sizes 2^18,2^20,2^21,2^22,2^24 --no-seed --no-segments --max-time 0.1 --quiet >$R/u32_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --sizes 2^20,2^21,2^24 --no-seed --no-segments --max-time 0.1 --quiet >$R/u64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --pairs u32 --sizes 2^20,2^21,2^24 --no-seed --no-segments --max-time 0.15 --quiet >$R/p32_${v}_r$r.txt 2>&1
    timeout 90 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^20,2^21,2^22,2^24,2^28 --no-seed --no-segments --max-time 0.25 --quiet >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes 2^20,2^24 --no-seed --no-segments --max-time 0.15 --quiet >$R/arg_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
timeout 90 ncu --clock-control none -k regex:"rx_histogram|rx_onesweep" -s 0 -c 2 --section SpeedOfLight --section LaunchStats $B/gpuprims bench sort --algo radix --dtype u64 --pairs u64 --sizes 2^24 --no-seed --no-segments --no-peers --max-time 0.01 --min-samples 1 --warmup 0 --quiet >$R/ncu_u64p_2p24.txt 2>&1
echo "ncu exit $? [$((SECONDS - T0))s] done" >>$O; pack

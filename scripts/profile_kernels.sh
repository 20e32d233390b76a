#!/usr/bin/env bash
# On the GPU machine: per-kernel durations (ncu, gpu__time_duration) of the sort and
# integrate benchmarks, to see where a call's time goes. Uses gpubin.tar.xz when present.
# Usage: scripts/profile_kernels.sh   (writes $OUT/profile_*.csv and profile_detail.txt)
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
[ -f gpubin.tar.xz ] && tar xf gpubin.tar.xz
G=${G:-build/gpuprims}
Q="--max-time 0.01 --min-samples 1 --warmup 0 --quiet"
M=gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
prof() { # name, bench args...
  local name=$1; shift
  ncu --clock-control none --metrics $M --csv --page raw "$G" bench "$@" $Q >"$OUT/profile_$name.csv" 2>"$OUT/profile_$name.err"
  echo "$name: exit $?"
}
prof sort_small sort --sizes 2^11,2^16 --no-segments --no-seed
prof sort_2e24 sort --sizes 2^24 --no-segments --no-seed --no-peers
prof sort_seg sort --no-seed --sizes 2^11 --segments 32768,65536
prof trap trap --sizes 2^20,2^28
ncu --clock-control none --set detailed -k regex:bs_block_sort --launch-count 1 "$G" bench sort --sizes 2^11 --no-segments --no-seed --no-peers $Q >"$OUT/profile_detail.txt" 2>&1
echo "detail: exit $?"

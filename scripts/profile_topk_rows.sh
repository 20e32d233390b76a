#!/usr/bin/env bash
# On the GPU machine: the rows top-k select kernel (src/cuda/reduce/topk_rows.cu) under
# Nsight Compute, to split a Python call's time into the kernel and the rest: its
# duration, occupancy, DRAM throughput and instructions on the first launches of
# `gpuprims.bench --suites topk_rows` (the 16384 x 1024, k = 8 case comes first). Ran in
# the fifth session (H200, 2026-12-01): 155.0 us for the block-per-row kernel, 69.9 us
# for the warp select (docs/perf/runs/2026-12-01-h200-s5-{bench,topk2}/ncu_topk_rows.txt).
# Uses gpubin.tar.xz when present.
# Usage: scripts/profile_topk_rows.sh   (writes $OUT/ncu_topk_rows.txt)
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
[ -f gpubin.tar.xz ] && tar xf gpubin.tar.xz
lib=$(realpath "${GP_BUILD_DIR:-build}")/libgpuprims.so
M=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,launch__grid_size,launch__occupancy_limit_registers
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 ncu --clock-control none \
   -k regex:gp_topk_rows_select --launch-count 2 --metrics "$M" \
   python3 -m gpuprims.bench --suites topk_rows --peers torch) >"$OUT/ncu_topk_rows.txt" 2>&1
echo "ncu exit $?" | tee -a "$OUT/ncu_topk_rows.txt"

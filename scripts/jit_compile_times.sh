#!/usr/bin/env bash
# First-compile times of integrate kernels (NVRTC to an sm_90 CUBIN, no GPU needed) for
# each expression, precision and GPUPRIMS_JIT_FAST level: the median of REPS fresh
# processes of BUILD/jit_compile_bench, as a markdown table (docs/perf/host.md).
#   scripts/jit_compile_times.sh [BUILD_DIR] [REPS]
# Where a CUDA driver is installed NVRTC keeps part of its work in the driver's compute
# cache (~/.nv/ComputeCache), and every process after the first would time a repeat
# (12-18 ms on the H200's host against 127-207 ms first; docs/perf/host.md): the cache is
# off here. Note that without a CUDA context NVRTC's first call also pays a one-time
# start (106-214 ms there; `jit_compile_bench E P warm` times it apart).
set -eu
export CUDA_CACHE_DISABLE=1
B=${1:-build} REPS=${2:-5}
exprs=("x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)")
echo "| expression | precision | default | min | mid | max |"
echo "|---|---|---:|---:|---:|---:|"
for e in "${exprs[@]}"; do
  for p in f32 f64; do
    row="| \`$e\` | $p |"
    for lvl in 0 min mid max; do
      ts=()
      for ((r = 0; r < REPS; r++)); do
        out=$(GPUPRIMS_JIT_FAST=$lvl "$B/jit_compile_bench" "$e" $p)
        ts+=("$(sed -E 's/compile_ms=([0-9.]+).*/\1/' <<<"$out")")
      done
      med=$(printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(((REPS + 1) / 2))p")
      row+=" $med ms ($(sed -E 's/.*cubin_bytes=([0-9]+).*/\1/' <<<"$out") B) |"
    done
    echo "$row"
  done
done

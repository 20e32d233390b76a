#!/usr/bin/env bash
# First-compile times of integrate kernels (NVRTC, and nvJitLink for the split JIT, to an
# sm_90 CUBIN; no GPU needed) for each expression and precision, as a markdown table
# (docs/perf/host.md): the median of REPS fresh processes of BUILD/jit_compile_bench,
# compiling the whole kernel (GPUPRIMS_JIT_SPLIT=0), split (the default), and split with
# GPUPRIMS_JIT_FAST=mid.
#   scripts/jit_compile_times.sh [BUILD_DIR] [REPS]
set -eu
B=${1:-build} REPS=${2:-5}
exprs=("x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)")
settings=("GPUPRIMS_JIT_SPLIT=0" "GPUPRIMS_JIT_SPLIT=1" "GPUPRIMS_JIT_FAST=mid")
echo "| expression | precision | whole | split | split, GPUPRIMS_JIT_FAST=mid |"
echo "|---|---|---:|---:|---:|"
for e in "${exprs[@]}"; do
  for p in f32 f64; do
    row="| \`$e\` | $p |"
    for set in "${settings[@]}"; do
      ts=()
      for ((r = 0; r < REPS; r++)); do
        out=$(env "$set" "$B/jit_compile_bench" "$e" $p)
        ts+=("$(sed -E 's/compile_ms=([0-9.]+).*/\1/' <<<"$out")")
      done
      med=$(printf '%s\n' "${ts[@]}" | sort -n | sed -n "$(((REPS + 1) / 2))p")
      row+=" $med ms ($(sed -E 's/.*cubin_bytes=([0-9]+).*/\1/' <<<"$out") B) |"
    done
    echo "$row"
  done
done

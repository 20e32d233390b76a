#!/usr/bin/env bash
# First-compile times of integrate kernels (NVRTC to an sm_90 CUBIN, no GPU needed) for
# each expression, precision and GPUPRIMS_JIT_FAST level: the median of REPS fresh
# processes of BUILD/jit_compile_bench, as a markdown table (docs/perf/host.md).
#   scripts/jit_compile_times.sh [BUILD_DIR] [REPS]
set -eu
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
      row+=" $med ms ($(sed -E 's/.*cubin_bytes=([0-9]+)/\1/' <<<"$out") B) |"
    done
    echo "$row"
  done
done

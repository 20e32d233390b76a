#!/bin/bash
# median of 5 fresh processes: the library's whole compile (jit_compile_bench) against the split prototype
exprs=("x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)")
k=0
echo "| expression | precision | whole compile (today) | split: f alone | split: link | split: total |"
echo "|---|---|---:|---:|---:|---:|"
for e in "${exprs[@]}"; do for p in f32 f64; do k=$((k+1))
  w=(); a=(); b=(); c=()
  for r in 1 2 3 4 5; do
    w+=($(GPUPRIMS_JIT_FAST=0 /work/main/build/jit_compile_bench "$e" $p | sed -E 's/compile_ms=([0-9.]+).*/\1/'))
    o=$(./nvlink2 run skel_$k.cubin f_$k.cu)
    a+=($(sed -E 's/f_ms=([0-9.]+).*/\1/' <<<"$o")); b+=($(sed -E 's/.*link_ms=([0-9.]+).*/\1/' <<<"$o")); c+=($(sed -E 's/.*total_ms=([0-9.]+).*/\1/' <<<"$o"))
  done
  med() { printf '%s\n' "$@" | sort -n | sed -n 3p; }
  echo "| \`$e\` | $p | $(med "${w[@]}") ms | $(med "${a[@]}") ms | $(med "${b[@]}") ms | $(med "${c[@]}") ms |"
done; done

#!/usr/bin/env bash
# Fifth GPU call of the tenth session (2026-12-02), binaries of 977c102 (c4.tar.xz):
# is there a cache outside gpuprims that makes a repeated integrate compile fast? Fresh
# expressions, each compiled in three fresh processes with gpuprims' cache off, with and
# without CUDA_CACHE_DISABLE=1 (the driver's compute cache), in the CLI (a CUDA context)
# and in jit_compile_bench (none); what ~/.nv holds before and after.
set -u
L=/tmp/logs; mkdir -p $L
tar xf c4.tar.xz
B=build
export GPUPRIMS_CACHE_DIR=off
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "HOME=$HOME"; ls -la ~/.nv 2>&1; du -sh ~/.nv/ComputeCache 2>&1; } >>$OUT/summary.txt
k=0
for dis in 1 0; do
  for tool in cli bench; do
    for p in f32 f64; do
      k=$((k + 1))
      e="x^3 + 0.$k$RANDOM * sin(x)"
      for r in 1 2 3; do
        if [ $tool = cli ]; then
          o=$(CUDA_CACHE_DISABLE=$dis $B/gpuprims integrate -v "$e" 0 1 --precision $p 2>&1 | grep -o "compile_ms [0-9.]*")
        else
          o=$(CUDA_CACHE_DISABLE=$dis $B/jit_compile_bench "$e" $p 2>&1)
        fi
        echo "CUDA_CACHE_DISABLE=$dis $tool '$e' $p r$r: $o" >>$OUT/summary.txt
      done
    done
  done
done
{ ls -la ~/.nv 2>&1; du -sh ~/.nv/ComputeCache 2>&1; find ~/.nv -type f 2>/dev/null | head -5; find / -xdev -newer c4.tar.xz -type f -size +1k 2>/dev/null | grep -v -E "^/(proc|sys|tmp/logs)" | head -20; } >>$OUT/summary.txt

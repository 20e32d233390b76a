#!/bin/sh
# The thirty-third session's CPU runs (2-core Intel Xeon model 207, no GPU): before =
# d37f6ce (vsort.c's 64-bit networks with min and max), cur = the same with max(x, y) as
# x ^ y ^ min(x, y); CPU-only Release builds of the shared library, the same Python
# package and bench script for both, two rounds alternating:
#   cmake -S <checkout> -B <dir> -G Ninja -DGP_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Release \
#         -DGP_BUILD_TESTS=OFF -DGP_BUILD_BENCH=OFF && ninja -C <dir> gpuprims_shared
R=docs/perf/runs/2026-12-05-xeon2core-s33
for r in 1 2; do
  for v in before cur; do
    GPUPRIMS_LIBRARY=/tmp/$v/libgpuprims.so PYTHONPATH=python \
      python3 bench/numpy_sizes.py --no-rows --log2n 8,10,12,14,16,18,20 --rounds 5 \
      --json $R/sizes_${v}_r$r.json > $R/sizes_${v}_r$r.txt
  done
done

#!/bin/sh
# The thirty-second session's CPU runs (2-core Intel Xeon development machine, no GPU),
# before = e37124e (the session's start), after = c64c340; CPU-only Release builds of the
# shared library alone, the same Python package and bench script for both:
#   cmake -S <checkout> -B <dir> -G Ninja -DGP_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=Release \
#         -DGP_BUILD_TESTS=OFF -DGP_BUILD_BENCH=OFF && ninja -C <dir> gpuprims_shared
R=docs/perf/runs/2026-12-05-xeon2core-s32
for r in 1 2 3; do
  for v in before after; do
    GPUPRIMS_LIBRARY=/tmp/$v/libgpuprims.so PYTHONPATH=python \
      python3 bench/numpy_sizes.py --rows-dtypes f32,f64 --json $R/sizes_${v}_r$r.json \
      > $R/sizes_${v}_r$r.txt
  done
done

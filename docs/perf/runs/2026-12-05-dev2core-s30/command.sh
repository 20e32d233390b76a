# Thirtieth session, 2026-12-05, the 2-core development machine (AMD EPYC, Zen 4,
# AVX-512; NumPy 2.4.6, CPython 3.11.7). No GPU lent: CPU-only Release builds of the
# library, before (2537c5c, the session's start, a worktree at /tmp/base, with its own
# Python package) and after (4e597d2), each run with its own Python package.
git worktree add /tmp/base 2537c5c
cmake -S /tmp/base -B /tmp/base/b -G Ninja -DGP_WITH_CUDA=OFF -DGP_BUILD_BENCH=OFF -DGP_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release
cmake --build /tmp/base/b --target gpuprims_shared
cmake -S . -B /tmp/cur -G Ninja -DGP_WITH_CUDA=OFF -DGP_BUILD_BENCH=OFF -DGP_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release
cmake --build /tmp/cur --target gpuprims_shared
R=docs/perf/runs/2026-12-05-dev2core-s30
for r in 1 2 3; do   # this session's bench/numpy_sizes.py for both (its new cases run on both)
  GPUPRIMS_LIBRARY=/tmp/base/b/libgpuprims.so PYTHONPATH=/tmp/base/python \
    python3 bench/numpy_sizes.py --rows-dtypes f32,f64 --json $R/sizes_before_r$r.json > $R/sizes_before_r$r.txt
  GPUPRIMS_LIBRARY=/tmp/cur/libgpuprims.so PYTHONPATH=python \
    python3 bench/numpy_sizes.py --rows-dtypes f32,f64 --json $R/sizes_after_r$r.json > $R/sizes_after_r$r.txt
done
# table.md: the ratios of the three runs side by side (a few lines of Python over the JSON)
# the C calls, one process per build and line, best of five loops (probe_*.c say how to
# build them; OMP_NUM_THREADS=1 for the one-thread figures):
#   ./probe_types N                   sum / max / argmax of every dtype
#   ./probe_argsort N DTYPE [PATTERN]  argsort of 8-byte keys
#   ./probe_topk_rows ROWS COLS K DTYPE
#   docs/perf/runs/2026-12-04-dev2core-s29/probe_segments.c ROWS COLS 0   row sorts
# argmax along rows (the rows cases of this bench gained it at 760b0f8), two runs:
for r in 1 2; do
  GPUPRIMS_LIBRARY=/tmp/cur/libgpuprims.so PYTHONPATH=python python3 bench/numpy_sizes.py \
    --log2n 4 --lens 16,64,256,1024,4096 --rows-dtypes f32,f64 \
    --json $R/rows_argmax_760b0f8_r$r.json > $R/rows_argmax_760b0f8_r$r.txt
done

# Twenty-ninth session, 2026-12-04, the 2-core development machine (AMD EPYC, AVX-512,
# NumPy 2.4.6, CPython 3.11.7). No GPU: CPU-only builds of the library, before
# (df61f35, a worktree at /tmp/base) and after (a729615), both Release with
# -DGP_WITH_CUDA=OFF, each run with its own Python package.
git worktree add /tmp/base df61f35
cmake -S /tmp/base -B /tmp/base/b -G Ninja -DGP_WITH_CUDA=OFF -DGP_BUILD_BENCH=OFF -DGP_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release
cmake --build /tmp/base/b --target gpuprims_shared
cmake -S . -B /tmp/cur -G Ninja -DGP_WITH_CUDA=OFF -DGP_BUILD_BENCH=OFF -DGP_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release
cmake --build /tmp/cur --target gpuprims_shared
R=docs/perf/runs/2026-12-04-dev2core-s29
for r in 1 2 3; do
  GPUPRIMS_LIBRARY=/tmp/base/b/libgpuprims.so PYTHONPATH=/tmp/base/python \
    python3 bench/numpy_sizes.py --json $R/sizes_before_r$r.json > $R/sizes_before_r$r.txt
  GPUPRIMS_LIBRARY=/tmp/cur/libgpuprims.so PYTHONPATH=python \
    python3 bench/numpy_sizes.py --json $R/sizes_after_r$r.json > $R/sizes_after_r$r.txt
done
# the C calls (probe_calls.c: best of 5 loops of back-to-back calls, wall clock):
#   gcc -O2 -o tiny probe_calls.c -Iinclude -L<lib dir> -lgpuprims -Wl,-rpath,<lib dir>
#   ./tiny N WHICH   (WHICH: 0 sort_copy, 1 sum, 2 argmax, 3 argsort, 4 max, 5 topk 16)
# probe_rows.c (gp_reduce_rows), probe_segments.c (gp_sort_segments / gp_topk_rows),
# probe_daz.c (sums and argmax of subnormals with DAZ/FTZ set) likewise.

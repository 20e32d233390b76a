#!/usr/bin/env bash
# On a machine with a GPU (not run yet): today's whole-compiled integrate kernel against
# the split one for each source in src/ (1-2: x^2, 3-4: sin(x)^2, 5-6: exp(-x^2) *
# cos(3*x) + sqrt(x + 1); odd f32, even f64), at 2^20, 2^24 and 2^28 trapezoids.
#   docs/perf/runs/2026-12-02-dev2core-s9-jit/run_gpu.sh [ARCH]   (default sm_90)
set -eu
cd "$(dirname "$0")"
A=${1:-sm_90}
gcc -O2 -o /tmp/splitbench splitbench.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 \
  -lnvrtc -lnvJitLink -lcudart
for k in 1 2 3 4 5 6; do
  for n in 1048576 16777216 268435456; do
    echo "src $k: $(/tmp/splitbench src/full_$k.cu src/skel_$k.cu src/f_$k.cu "$A" $n 30)"
  done
done

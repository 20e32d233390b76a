#!/usr/bin/env bash
# On the GPU machine, with carried binaries (scripts/pack_gpubin.sh; tar xf first): the
# reduction suites (exact SUM in full), the sanitizers over the exact SUM, the SUM bench
# against CUB from 2^10 to 2^30, the host-path bench, the CLI on files against NumPy
# (bench/cli_files.py) and Python's sum. Logs to $OUT (few files: the device tool
# returns at most 8). Usage: GP_BUILD_DIR=build scripts/gpu_reduce_check.sh
set -u -o pipefail
OUT=${OUT:-$PWD/out}
B=${GP_BUILD_DIR:-build}
J=$OUT/json
mkdir -p "$J"
T0=$SECONDS
stamp() { echo "[$((SECONDS - T0))s] $*" | tee -a "$OUT/summary.txt"; }
stamp tests
{
  timeout 200 $B/test_reduce_exact_gpu; echo "test_reduce_exact_gpu: exit $?"
  GP_TEST_QUICK=1 timeout 200 $B/test_reduce_gpu | tail -3; echo "test_reduce_gpu (quick): exit $?"
  timeout 200 $B/test_reduce_segments_gpu | tail -3; echo "test_reduce_segments_gpu: exit $?"
  GPUPRIMS_DIST_TIMEOUT=60 timeout 100 $B/test_dist_gpu p1 | tail -2; echo "test_dist_gpu p1: exit $?"
} >"$OUT/tests.txt" 2>&1
grep -E "exit|passed|FAIL" "$OUT/tests.txt" | tee -a "$OUT/summary.txt"
stamp sanitize
for tool in memcheck racecheck synccheck; do
  (GP_TEST_QUICK=1 timeout 250 compute-sanitizer --tool $tool --error-exitcode 9 \
     $B/test_reduce_exact_gpu >"$J/san_$tool.log" 2>&1
   echo "$tool test_reduce_exact_gpu: exit $? ($(tail -1 "$J/san_$tool.log"))" >>"$OUT/summary.txt") &
done
wait
stamp "bench reduce"
$B/gpuprims bench reduce --max-time 0.3 --quiet --dtype f32,f64 --op sum \
  --n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30 --json "$J/reduce_sum.json" \
  >"$OUT/bench.txt" 2>&1
stamp "bench host"
$B/gpuprims bench host --json "$J/host.json" >>"$OUT/bench.txt" 2>&1
stamp "python sum"
GPUPRIMS_LIBRARY=$(realpath $B)/libgpuprims.so PYTHONPATH=python timeout 200 \
  python3 -m gpuprims.bench --suites sum,overhead --json "$J/python_sum.json" >>"$OUT/bench.txt" 2>&1
stamp "cli files"
timeout 250 python3 bench/cli_files.py --gpuprims $B/gpuprims --reps 5 --json "$J/cli_files.json" \
  >"$OUT/cli_files.txt" 2>&1
tar czf "$OUT/json.tgz" -C "$J" . && rm -rf "$J"
stamp done

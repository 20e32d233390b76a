#!/usr/bin/env bash
# On a machine with 2+ GPUs and NCCL (the 2x H200 one): builds ./build (reused when
# present) with NCCL, then runs the multi-GPU tests and benchmarks of gp_dist_*, each
# step under `timeout` and the whole within ~8 minutes, logs in $OUT, a summary last.
# A failed step does not stop the others. Usage: scripts/gpu_nccl.sh [budget_seconds]
#   build.log       configure + build
#   env.txt         GPUs, topology, driver, NCCL found by the build
#   p1.log          test_dist_gpu p1: gp_dist over 1 GPU == gp_sort / gp_reduce bits
#   local2.log      test_dist_gpu local2: one process, GPUs 0 and 1
#   procs2.log      test_dist_gpu procs2: two processes (ncclCommInitRank), bad-arg ranks
#   exact_gpu.log   test_reduce_exact_gpu (its kernel gained the accumulator output)
#   cli_gpus.log    tests/cli_gpus.sh: gpuprims sort/reduce --gpus 2|all == one GPU's bytes
#   bench_dist.txt  gpuprims bench dist: 2^31 u32 sort (both paths) and f32 sum, 2 GPUs vs 1
#   bench_dist24.txt, bench_dist28.txt: the same at 2^24 and 2^28
#   bench_big.txt   gpuprims bench dist --big: 2^34 u32 keys (64 GiB) over 2 GPUs
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
BUDGET=${1:-470}
T0=$SECONDS
B=build
SUMMARY=()
export GPUPRIMS_DIST_TIMEOUT=${GPUPRIMS_DIST_TIMEOUT:-90} # no NCCL wait beyond this
export GP_TEST_DIST_LIMIT=${GP_TEST_DIST_LIMIT:-100}

# step NAME LIMIT LOG CMD...: runs CMD under min(LIMIT, time left), output to $OUT/LOG
step() {
  local name=$1 limit=$2 log=$3
  shift 3
  local left=$((BUDGET - (SECONDS - T0)))
  if [ "$left" -lt 15 ]; then
    SUMMARY+=("$name: SKIPPED (out of time)")
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  local s=$SECONDS
  echo "[$((SECONDS - T0))s] $name (limit ${limit}s)"
  timeout --kill-after=10 "$limit" "$@" >"$OUT/$log" 2>&1
  local rc=$?
  local what="exit $rc"
  [ $rc -eq 0 ] && what="ok"
  [ $rc -eq 77 ] && what="SKIPPED (exit 77)"
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && what="TIMED OUT after ${limit}s"
  SUMMARY+=("$name: $what ($((SECONDS - s))s, $log)")
  tail -3 "$OUT/$log"
}

GEN=""
command -v ninja >/dev/null && [ ! -f $B/CMakeCache.txt ] && GEN="-G Ninja"
# GP_SKIP_BUILD=1: binaries already there (scripts/pack_gpubin.sh carried them)
[ -n "${GP_SKIP_BUILD:-}" ] && [ -x $B/test_dist_gpu ] ||
step build 300 build.log bash -c "cmake -S . -B $B $GEN -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DGP_WITH_NCCL=ON && cmake --build $B -j $(nproc) --target \
  gpuprims test_dist_gpu test_dist_combine test_reduce_exact_gpu"
{
  date -u
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv
  nvidia-smi topo -m
  grep -E "NCCL_(INCLUDE_DIR|LIBRARY)" $B/CMakeCache.txt
  grep -h "define NCCL_(MAJOR|MINOR|PATCH)" -E "$(grep NCCL_INCLUDE_DIR: $B/CMakeCache.txt | cut -d= -f2)/nccl.h"
} >"$OUT/env.txt" 2>&1

if [ -x $B/test_dist_gpu ]; then
  step "test_dist_combine (cpu)" 60 combine.log $B/test_dist_combine
  step "test_dist_gpu p1" 90 p1.log $B/test_dist_gpu p1
  step "test_dist_gpu local2" 120 local2.log $B/test_dist_gpu local2
  step "test_dist_gpu procs2" 120 procs2.log $B/test_dist_gpu procs2
  step "test_reduce_exact_gpu" 90 exact_gpu.log $B/test_reduce_exact_gpu
  step "cli_gpus (--gpus 2|all)" 150 cli_gpus.log bash tests/cli_gpus.sh $B/gpuprims .
  step "bench dist 2^31" 150 bench_dist.txt $B/gpuprims bench dist --log2n 31 --gpus 2 --samples 5
  step "bench dist 2^24" 60 bench_dist24.txt $B/gpuprims bench dist --log2n 24 --gpus 2 --samples 9
  step "bench dist 2^28" 90 bench_dist28.txt $B/gpuprims bench dist --log2n 28 --gpus 2 --samples 7
  step "bench dist --big 2^34" 150 bench_big.txt $B/gpuprims bench dist --big --log2n 34 --gpus 2
else
  SUMMARY+=("tests and benchmarks: NOT RUN (no build; see build.log)")
fi

echo
echo "==== gpu_nccl.sh summary ($((SECONDS - T0))s) ===="
printf '%s\n' "${SUMMARY[@]}" | tee "$OUT/summary.txt"
grep -hE "passed|FAILED|SKIPPED|speedup|Gkeys|bits equal|equal one GPU|ordered" "$OUT"/*.log "$OUT"/*.txt 2>/dev/null |
  head -60 | tee -a "$OUT/summary.txt"

#!/usr/bin/env bash
# On the GPU machine: run every test (none may skip), compute-sanitizer (memcheck,
# racecheck, synccheck) over test_gpu_kernels and, at GP_TEST_QUICK=1 sizes, test_reduce_gpu
# and test_sort_gpu, the benchmarks and the ncu model check.
# Binaries come from gpubin.tar.xz (built on the dev machine by scripts/pack_gpubin.sh and
# carried), or are built here into build-gpu when there is none. At most 8 logs go to
# $OUT (the device tool brings back 8 files: six logs, json.tgz, ncu.tgz). Usage:
#   scripts/gpu_check.sh [test] [sanitize] [bench] [ncu]     (default: all four)
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
steps=${*:-test sanitize bench ncu}
has() { [[ " $steps " == *" $1 "* ]]; }
T0=$SECONDS
stamp() { echo "[$((SECONDS - T0))s] $*"; }

if [ -f gpubin.tar.xz ]; then
  tar xf gpubin.tar.xz && B=build
else
  B=build-gpu
  cmake -S . -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
    cmake --build $B -j "$(nproc)" >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
fi
G=$B/gpuprims
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; $G info; } >"$OUT/info.txt" 2>&1

if has test; then
  stamp tests
  : >"$OUT/tests.log"
  for t in $B/test_*; do
    s=$SECONDS
    timeout 300 "$t" >>"$OUT/tests.log" 2>&1
    rc=$?
    echo "$(basename "$t"): exit $rc ($((SECONDS - s))s)" | tee -a "$OUT/tests.log"
  done
  for t in tests/cli_*.sh; do
    [ "$(basename "$t")" = cli_install.sh ] && continue # needs the build tree
    bash "$t" "$G" "$PWD" >>"$OUT/tests.log" 2>&1
    echo "$(basename "$t"): exit $?" | tee -a "$OUT/tests.log"
  done
fi
if has sanitize; then
  stamp sanitize
  : >"$OUT/sanitize.log"
  # the kernel suite, and the whole reduce and sort suites at their quick sizes
  # (GP_TEST_QUICK=1); exit 124 is the timeout, 9 a sanitizer finding
  for t in test_gpu_kernels test_reduce_gpu test_sort_gpu; do
    for tool in memcheck racecheck synccheck; do
      s0=$(date +%s)
      GP_TEST_QUICK=1 GP_TEST_LARGE=0 timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 \
        $B/$t >>"$OUT/sanitize.log" 2>&1
      echo "compute-sanitizer $tool $t (GP_TEST_QUICK=1): exit $?, $(($(date +%s) - s0)) s" |
        tee -a "$OUT/sanitize.log"
    done
  done
fi
if has bench; then
  stamp bench
  J=$(mktemp -d)
  BO="--max-time 0.5 --quiet"
  { $G bench reduce $BO --json "$J/reduce.json"
    $G bench reduce $BO --ladder --no-peers --json "$J/reduce_ladder.json"
    $G bench reduce $BO --dtype f32,f64,i32 --op sum,min,max --n 2^20,2^24,2^28 --json "$J/reduce_types.json"
  } >"$OUT/bench_reduce.txt" 2>&1
  { $G bench sort $BO --json "$J/sort.json"; $G bench sort --seed-tables --quiet; } >"$OUT/bench_sort.txt" 2>&1
  { $G bench trap $BO --json "$J/trap.json"; $G bench trap --stages $BO; } >"$OUT/bench_trap.txt" 2>&1
  tar czf "$OUT/json.tgz" -C "$J" .
  stamp bench done
fi
if has ncu; then
  stamp ncu
  N=$(mktemp -d)
  scripts/ncu_models.sh $B "$N" >"$N/log.txt" 2>&1
  echo "ncu_models.sh: exit $?"
  cat "$N/models_table.md" 2>/dev/null
  rm -f "$N"/in.npy "$N"/model_probe
  tar czf "$OUT/ncu.tgz" -C "$N" .
fi
stamp done

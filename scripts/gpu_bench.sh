#!/usr/bin/env bash
# On the GPU machine, after scripts/gpu_verify.sh build: the benchmarks behind
# docs/perf (sort, reduce, host, integrate, Python, CPU beside NumPy), each against its
# peers in the same run. Text to $OUT/*.txt, JSON rows to $OUT/json.tgz. Usage:
#   scripts/gpu_bench.sh [sort] [reduce] [host] [integrate] [python] [cpu] [seed]
# (default: all; seed: the chapters' kernel ladder, tables 6.18/6.19 and trap stages)
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
steps=${*:-sort reduce host integrate python cpu seed}
has() { [[ " $steps " == *" $1 "* ]]; }
T0=$SECONDS
stamp() { echo "[$((SECONDS - T0))s] $*" | tee -a "$OUT/bench_summary.txt"; }
B=${GP_BUILD_DIR:-build-gpu}
G=$B/gpuprims
J=$OUT/json
mkdir -p "$J"
BO="--max-time 0.3 --quiet"
run() { local name=$1; shift; stamp "$name"; timeout 240 "$@" >>"$OUT/$name.txt" 2>&1 || echo "exit $? : $*" >>"$OUT/$name.txt"; }

if has sort; then
  S=2^11,2^16,2^17,2^18,2^20,2^21,2^22,2^24,2^26,2^28,2^30
  run sort $G bench sort $BO --algo radix --sizes $S --no-seed --no-segments --json $J/sort_radix.json
  run sort $G bench sort $BO --algo auto --sizes $S --no-seed --no-segments --no-peers --json $J/sort_auto.json
  run sort $G bench sort $BO --algo bitonic --sizes 2^16,2^17,2^18,2^19,2^20 --no-seed --no-segments --no-peers --json $J/sort_bitonic.json
  for t in f32 u64 i32 f64; do
    run sort $G bench sort $BO --algo radix --dtype $t --sizes 2^20,2^24,2^28 --no-seed --no-segments --json $J/sort_radix_$t.json
  done
  run sort $G bench sort $BO --algo radix --pairs u32 --sizes 2^16,2^20,2^24,2^28 --no-seed --no-segments --json $J/sort_pairs.json
  run sort $G bench sort $BO --argsort --sizes 2^16,2^20,2^24,2^28 --no-seed --no-segments --json $J/argsort.json
  run sort $G bench sort $BO --offsets uniform,powerlaw,tiny,one --sizes 2^11 --no-seed --json $J/sort_offsets.json
fi
if has reduce; then
  run reduce $G bench reduce $BO --dtype f32,f64 --op sum --n 2^16,2^20,2^24,2^28,2^30 --json $J/reduce_sum.json
  run reduce $G bench reduce $BO --dtype f32,i32 --op argmin,argmax,min --n 2^20,2^24,2^28 --json $J/reduce_arg.json
  run reduce $G bench reduce $BO --dtype f32 --op sum --n 2^24 --rows 32,1024,65536 --json $J/reduce_rows.json
fi
if has host; then
  run host $G bench host --json $J/host.json
fi
if has integrate; then
  run integrate $G bench integrate $BO --json $J/integrate.json
fi
if has seed; then
  run seed $G bench reduce $BO --ladder --no-peers --json $J/reduce_ladder.json
  run seed $G bench sort --seed-tables --quiet
  run seed $G bench integrate --stages $BO
fi
if has python; then
  stamp python
  GPUPRIMS_LIBRARY=$B/libgpuprims.so PYTHONPATH=python timeout 300 \
    python3 -m gpuprims.bench --json $J/python.json >"$OUT/python.txt" 2>&1 || echo "exit $?" >>"$OUT/python.txt"
fi
if has cpu; then
  stamp cpu
  timeout 200 python3 bench/numpy_cpu.py --lib $B/libgpuprims.so --reps 5 --json $J/numpy_cpu.json \
    --md "$OUT/numpy_cpu.md" >"$OUT/cpu.txt" 2>&1 || echo "exit $?" >>"$OUT/cpu.txt"
fi
tar czf "$OUT/json.tgz" -C "$J" . && rm -rf "$J"
stamp done

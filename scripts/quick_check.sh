#!/usr/bin/env bash
# On the GPU machine, during development: the named GPU tests, then the sort and trap
# benchmarks, logs to $OUT. Uses gpubin.tar.xz (scripts/pack_gpubin.sh). Usage:
#   scripts/quick_check.sh "test_sort_gpu test_integrate_gpu" "sort trap"
set -u -o pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
tar xf gpubin.tar.xz
B=build
for t in ${1:-}; do
  s=$SECONDS
  timeout 300 "$B/$t" >"$OUT/$t.log" 2>&1
  echo "$t: exit $? ($((SECONDS - s))s) $(tail -1 "$OUT/$t.log")"
done
for s in ${2:-}; do
  case $s in
  sort) $B/gpuprims bench sort --max-time 0.3 --quiet ;;
  sortsmall) $B/gpuprims bench sort --sizes 2^11,2^16 --no-segments --max-time 0.3 --quiet ;;
  trap) $B/gpuprims bench trap --sizes 2^20,2^28 --max-time 0.5 --quiet ;;
  esac >"$OUT/bench_$s.txt" 2>&1
  echo "bench $s: exit $?"
done

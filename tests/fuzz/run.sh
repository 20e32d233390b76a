#!/usr/bin/env bash
# The longer fuzz run: every target in a GP_FUZZ build for SECONDS each (default 600),
# on the committed seeds plus what earlier runs found. A crash is saved as
# BUILD/fuzz/crash-*; copy it into tests/fuzz/corpus/<target>/ once fixed, so every
# later run (and CTest) replays it.
#   cmake -S . -B build-fuzz -G Ninja -DGP_WITH_CUDA=OFF -DGP_FUZZ=ON \
#         -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
#   cmake --build build-fuzz && tests/fuzz/run.sh build-fuzz 3600
set -euo pipefail
B=${1:?usage: tests/fuzz/run.sh BUILD [SECONDS]}
S=${2:-600}
root=$(cd "$(dirname "$0")/../.." && pwd)
rc=0
for t in "$B"/fuzz_*; do
  [ -x "$t" ] || continue
  what=$(basename "$t"); what=${what#fuzz_}
  mkdir -p "$B/fuzz/$what"
  echo "== $(basename "$t"): ${S}s"
  "$t" -max_total_time="$S" -max_len=4096 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$B/fuzz/" "$B/fuzz/$what" "$root/tests/fuzz/corpus/$what" || rc=1
done
exit $rc

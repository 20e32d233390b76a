#!/usr/bin/env bash
# s26-py (2026-12-04, twenty-sixth session): binaries of $1 (s26-final's). The small sorts
# and argsorts from Python beside torch and CuPy (issue 14), three times in one call:
# s26-final's first sizes ran slow on every side (the process's first GPU work).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
for r in 1 2 3; do
  (cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m gpuprims.bench --suites sort,argsort --sizes 2048,4096,8192,16384,32768,65536 --json $R/python_r$r.json) >$R/python_r$r.txt 2>&1
  echo "python bench round $r exit $? [$((SECONDS - T0))s]" >>$O; pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

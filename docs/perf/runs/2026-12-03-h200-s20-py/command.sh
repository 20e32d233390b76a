#!/usr/bin/env bash
# s20-py (2026-12-03, twentieth session): small sorts and argsorts from Python beside
# torch and CuPy, the library of $1 (rank sort for AUTO pairs/argsorts up to 2^12 and
# keys alone up to 2^10) against the same library with the rank sort off
# (libgpuprims_norank.so: -DGP_RK_KEYS_LOG2=0 -DGP_RK_PAIRS_LOG2=0 on rank_sort.cu),
# alternated, two rounds. Libraries in c20p.tar.xz.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c20p.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$R/summary.txt
for r in 1 2; do
  for v in libgpuprims.so libgpuprims_norank.so; do
    [ $((SECONDS - T0)) -lt 240 ] || break
    GPUPRIMS_LIBRARY=$(realpath build/$v) PYTHONPATH=python timeout 100 python3 -m gpuprims.bench --suites sort,argsort --sizes 2048,4096,8192 --json $R/py_${v%.so}_r$r.json >$R/py_${v%.so}_r$r.txt 2>&1
    echo "[$((SECONDS - T0))s] $v r$r exit $?" >>$R/summary.txt
    pack
  done
done
pack
cat $R/summary.txt
for f in $R/py_*_r1.txt; do echo "== $f"; grep -vE "^#" $f | head -30; done

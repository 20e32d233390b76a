#!/usr/bin/env bash
# Fifth GPU call of the fourteenth session (2026-12-02): s14-d's binaries (c14d.tar.xz,
# commit $1). Where the Python bench's 2^28 sum loses ~80 us that s14-d's probe does
# not: probe_bench.py (this folder) fresh and after the bench's sizes, then the bench
# itself, whole and at 2^28 alone.
set -u
R=/tmp/r; mkdir -p $R
tar xf c14d.tar.xz
B=build
export GPUPRIMS_LIBRARY=$(realpath $B)/libgpuprims.so PYTHONPATH=$PWD/python
P=docs/perf/runs/2026-12-02-h200-s14-e/probe_bench.py
echo "binaries of ${1:-?}" >$R/summary.txt
timeout 100 python3 $P fresh >$R/probe_fresh.txt 2>&1; echo "probe fresh exit $?" >>$R/summary.txt
timeout 100 python3 $P history >$R/probe_history.txt 2>&1; echo "probe history exit $?" >>$R/summary.txt
(cd python && timeout 100 python3 -m gpuprims.bench --suites sum --json $R/py_sum.json >$R/py_sum.txt 2>&1); echo "bench sum exit $?" >>$R/summary.txt
(cd python && timeout 100 python3 -m gpuprims.bench --suites sum --sizes 268435456 --json $R/py_sum28.json >$R/py_sum28.txt 2>&1); echo "bench sum 2^28 exit $?" >>$R/summary.txt
tar czf $OUT/r.tgz -C /tmp r
cat $R/summary.txt $R/probe_*.txt; grep -h "sum .item" $R/py_sum.txt $R/py_sum28.txt

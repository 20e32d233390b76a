#!/usr/bin/env bash
# s28-e (2026-12-04): binaries of $1. topk_rows.cu's chunk path for k = 33 .. 128 too
# (each lane's chunk in 4 or 8 groups, each group's best offered first): default against
# s28-d's (r1only: 39980bd's source, chunks for k <= 32 only) and the session's first
# (old: 5e8ae52's): test_topk_rows_gpu (two new shapes), its memcheck and racecheck
# (quick), the k = 33 .. 128 A/B probe, the Python topk_rows suite against torch.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s28e.tar.xz
B=$(realpath build); PY=$(realpath python)
{ echo "binaries of ${1:-?}"; uptime; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; } >$O
(cd $B && timeout 100 ./test_topk_rows_gpu) >$R/t.txt 2>&1; echo "test_topk_rows_gpu exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/t.txt)" >>$O
for tool in memcheck racecheck; do
  (cd $B && GP_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 ./test_topk_rows_gpu) >$R/$tool.txt 2>&1
  echo "$tool exit $? [$((SECONDS - T0))s] $(tail -n 2 $R/$tool.txt | tr '\n' ' ')" >>$O
done
pack
timeout 150 python3 docs/perf/runs/2026-12-04-h200-s28-e/probe_topk_rows_k.py new=$B/libgpuprims.so r1only=$B/libgpuprims_r1only.so old=$B/libgpuprims_old.so >$R/probe_topk.txt 2>&1
echo "probe topk exit $? [$((SECONDS - T0))s]" >>$O
pack
export GPUPRIMS_LIBRARY=$B/libgpuprims.so
(cd /tmp && PYTHONPATH=$PY timeout 100 python3 -m gpuprims.bench --suites topk_rows --peers torch --json $R/py.json) >$R/py.txt 2>&1
echo "bench exit $? [$((SECONDS - T0))s]" >>$O
pack

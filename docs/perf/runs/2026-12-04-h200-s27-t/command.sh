#!/usr/bin/env bash
# s27-t (2026-12-04): binaries of $1. topk_rows.cu's occupancy now through
# gp_resident_blocks: test_topk_rows_gpu, test_topk_gpu, pytest's top-k tests, and the
# Python topk_rows suite (new timer).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27t.tar.xz
B=$(realpath build); PY=$(realpath python)
{ echo "binaries of ${1:-?}"; uptime; } >$O
(cd $B && timeout 120 ./test_topk_rows_gpu) >$R/t_rows.txt 2>&1; echo "test_topk_rows_gpu exit $? [$((SECONDS - T0))s]" >>$O
(cd $B && timeout 120 ./test_topk_gpu) >$R/t_topk.txt 2>&1; echo "test_topk_gpu exit $? [$((SECONDS - T0))s]" >>$O
tail -qn 1 $R/t_rows.txt $R/t_topk.txt >>$O; pack
export GPUPRIMS_LIBRARY=$B/libgpuprims.so
(cd python && PYTHONPATH=. timeout 100 python3 -m pytest -q tests/test_topk.py) >$R/pytest.txt 2>&1; echo "pytest test_topk exit $? [$((SECONDS - T0))s]" >>$O; tail -n 1 $R/pytest.txt >>$O; pack
(cd /tmp && PYTHONPATH=$PY timeout 60 python3 -m gpuprims.bench --suites topk_rows --json $R/topk_rows.json) >$R/topk_rows.txt 2>&1; echo "bench topk_rows exit $? [$((SECONDS - T0))s]" >>$O; pack

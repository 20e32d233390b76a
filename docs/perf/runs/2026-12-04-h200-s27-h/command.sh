#!/usr/bin/env bash
# s27-h (2026-12-04): binaries of $1 (s27-final's). Why top-k of rows from Python took
# 165.6 us under the bench's new timer (98.5 us the old way, 2026-12-01; kernel 69.9 us
# by ncu): probe_topk_rows.py.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27final.tar.xz build/libgpuprims.so build/libgpuprims.so.0.1 build/libgpuprims.so.0.1.0
{ echo "binaries of ${1:-?}"; uptime; } >$O
export GPUPRIMS_LIBRARY=$(realpath build)/libgpuprims.so PYTHONPATH=$(realpath python)
timeout 200 python3 docs/perf/runs/2026-12-04-h200-s27-h/probe_topk_rows.py >$R/probe.txt 2>&1
echo "probe exit $? [$((SECONDS - T0))s]" >>$O; pack

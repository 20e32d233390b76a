#!/usr/bin/env bash
# s27-b (2026-12-04): binaries of $1. Issue 14: the host side of small sorts and the sum
# (probe_api.py: the C calls' submit time, and the CUDA API calls in a CUPTI trace).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
[ -f build/libgpuprims.so.0.1.0 ] || tar xf s27a.tar.xz
B=$(realpath build)
{ echo "binaries of ${1:-?}"; uptime; } >$O
export GPUPRIMS_LIBRARY=$B/libgpuprims.so PYTHONPATH=$(realpath python)
timeout 200 python3 docs/perf/runs/2026-12-04-h200-s27-b/probe_api.py >$R/probe_api.txt 2>&1
echo "probe exit $? [$((SECONDS - T0))s]" >>$O; pack

#!/usr/bin/env bash
# s27-d (2026-12-04): binaries of $1. Issue 14: GPU timelines of Python calls (probe_timeline.py).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
[ -f build/libgpuprims.so.0.1.0 ] || tar xf s27a.tar.xz
B=$(realpath build)
{ echo "binaries of ${1:-?}"; uptime; } >$O
export GPUPRIMS_LIBRARY=$B/libgpuprims.so PYTHONPATH=$(realpath python)
D=docs/perf/runs/2026-12-04-h200-s27-d
timeout 200 python3 $D/probe_timeline.py >$R/timeline.txt 2>&1; echo "timeline exit $? [$((SECONDS - T0))s]" >>$O; pack

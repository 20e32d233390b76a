#!/usr/bin/env bash
# s27-c (2026-12-04): binaries of $1. Issue 14: the timer's modes (probe_timer.py) and the
# Python steps of a call (probe_py.py).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
[ -f build/libgpuprims.so.0.1.0 ] || tar xf s27a.tar.xz
B=$(realpath build)
{ echo "binaries of ${1:-?}"; uptime; } >$O
export GPUPRIMS_LIBRARY=$B/libgpuprims.so PYTHONPATH=$(realpath python)
D=docs/perf/runs/2026-12-04-h200-s27-c
timeout 100 python3 $D/probe_py.py >$R/probe_py.txt 2>&1; echo "probe_py exit $? [$((SECONDS - T0))s]" >>$O; pack
timeout 300 python3 $D/probe_timer.py >$R/probe_timer.txt 2>&1; echo "probe_timer exit $? [$((SECONDS - T0))s]" >>$O; pack

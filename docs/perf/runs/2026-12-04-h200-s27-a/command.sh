#!/usr/bin/env bash
# s27-a (2026-12-04, twenty-seventh session): binaries of $1. Issue 14: where a Python
# call's time goes (probe_host.py, with the default stream wait and with
# GPUPRIMS_HOST_WAIT=spin), the bench with its new timer (synchronize after the flush,
# implementations in turns) twice, and the old timer once on the small sorts.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27a.tar.xz
B=$(realpath build)
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; nproc; uptime; } >$O
D=docs/perf/runs/2026-12-04-h200-s27-a
export GPUPRIMS_LIBRARY=$B/libgpuprims.so PYTHONPATH=$(realpath python)
timeout 100 python3 $D/probe_host.py >$R/probe_sync.txt 2>&1; echo "probe sync exit $? [$((SECONDS - T0))s]" >>$O; pack
GPUPRIMS_HOST_WAIT=spin timeout 60 python3 $D/probe_host.py >$R/probe_spin.txt 2>&1; echo "probe spin exit $? [$((SECONDS - T0))s]" >>$O; pack
timeout 60 $B/gpuprims bench host --big 0 --reps 400 >$R/host.txt 2>&1; echo "bench host exit $? [$((SECONDS - T0))s]" >>$O
S=2048,4096,8192,16384,32768,65536,1048576,16777216,268435456
for r in 1 2; do
  timeout 170 python3 -m gpuprims.bench --suites sum,sort,argsort --sizes $S --json $R/new_r$r.json >$R/new_r$r.txt 2>&1
  echo "new timer round $r exit $? [$((SECONDS - T0))s]" >>$O; pack
done
timeout 90 python3 $D/probe_old_timer.py --suites sum,sort,argsort --sizes 2048,8192,65536,1048576 --json $R/old.json >$R/old.txt 2>&1
echo "old timer exit $? [$((SECONDS - T0))s]" >>$O; uptime >>$O
pack

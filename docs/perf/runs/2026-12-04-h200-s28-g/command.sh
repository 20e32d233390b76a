#!/usr/bin/env bash
# s28-g (2026-12-04): binaries of $1 (571cd9e's library). probe_spread.py in four
# processes one after the other: where the ~60 us that one process adds to each
# gpuprims.topk call goes (Python, the C call, the wait), beside torch.topk.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s28g.tar.xz
export GPUPRIMS_LIBRARY=$(realpath build)/libgpuprims.so
{ echo "binaries of ${1:-?}"; uptime; nproc; } >$O
for i in 1 2 3 4; do
  PYTHONPATH=$(realpath python) timeout 60 python3 docs/perf/runs/2026-12-04-h200-s28-g/probe_spread.py >>$R/spread.txt 2>&1
  echo "process $i exit $? [$((SECONDS - T0))s]" >>$O
  pack
done

#!/usr/bin/env bash
# s28-b (2026-12-04): as s28-a, the chunk loads issued before any is used, and 8 registers a chunk (m8); topk_rows.cu chunk path (k <= 32: lane bests first, then only the
# elements that beat the threshold) against the old path (-DGP_TKR_CHUNKS=0) and 16
# registers a chunk (-DGP_TKR_M_LONG=16): each build's test_topk_rows_gpu, then the A/B
# probe (ctypes, the three libraries in one process, torch.topk beside them).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s28b.tar.xz
B=$(realpath build)
{ echo "binaries of ${1:-?}"; uptime; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; } >$O
for t in test_topk_rows_gpu test_topk_rows_gpu_old test_topk_rows_gpu_m16 test_topk_rows_gpu_m8; do
  (cd $B && timeout 100 ./$t) >$R/$t.txt 2>&1; echo "$t exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/$t.txt)" >>$O
done
pack
timeout 200 python3 docs/perf/runs/2026-12-04-h200-s28-a/probe_topk_rows_ab.py new=$B/libgpuprims.so old=$B/libgpuprims_old.so m16=$B/libgpuprims_m16.so m8=$B/libgpuprims_m8.so >$R/probe.txt 2>&1
echo "probe exit $? [$((SECONDS - T0))s]" >>$O
pack

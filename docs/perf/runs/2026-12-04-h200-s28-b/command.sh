#!/usr/bin/env bash
# s28-b (2026-12-04): binaries of $1.
# (1) topk_rows.cu's chunk path with its loads issued before any is used (s28-a's loads
#     waited one after another), 32 (default), 16 (m16) or 8 (m8) registers a chunk,
#     against the old path (-DGP_TKR_CHUNKS=0): each build's test_topk_rows_gpu, then
#     s28-a's A/B probe.
# (2) the one-cluster radix argsort carrying 8-byte indices as 4-byte places (default)
#     against carrying them whole (wide: -DGP_RX_CL_NARROW_IDX=0): test_sort_radix_gpu of
#     both, test_sort_gpu, the A/B probe.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s28b.tar.xz
B=$(realpath build)
{ echo "binaries of ${1:-?}"; uptime; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; } >$O
for t in test_topk_rows_gpu test_topk_rows_gpu_old test_topk_rows_gpu_m16 test_topk_rows_gpu_m8 test_sort_radix_gpu test_sort_radix_gpu_wide test_sort_gpu; do
  (cd $B && timeout 100 ./$t) >$R/$t.txt 2>&1; echo "$t exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/$t.txt)" >>$O
done
pack
timeout 150 python3 docs/perf/runs/2026-12-04-h200-s28-a/probe_topk_rows_ab.py new=$B/libgpuprims.so old=$B/libgpuprims_old.so m16=$B/libgpuprims_m16.so m8=$B/libgpuprims_m8.so >$R/probe_topk.txt 2>&1
echo "probe topk exit $? [$((SECONDS - T0))s]" >>$O
pack
timeout 100 python3 docs/perf/runs/2026-12-04-h200-s28-b/probe_argsort_ab.py narrow=$B/libgpuprims.so wide=$B/libgpuprims_wide.so >$R/probe_argsort.txt 2>&1
echo "probe argsort exit $? [$((SECONDS - T0))s]" >>$O
pack

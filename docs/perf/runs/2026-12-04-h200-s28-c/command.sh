#!/usr/bin/env bash
# s28-c (2026-12-04): binaries of $1. topk_rows.cu's chunk path: the first lane bests of a
# slice sorted straight into the list (default) or merged into it (nofs:
# -DGP_TKR_FIRST_SORT=0), __launch_bounds__(128, 4) (mb4), 16 registers a chunk (m16),
# against the session's first topk_rows.cu (old, 5e8ae52's source): each build's
# test_topk_rows_gpu, s28-a's A/B probe, and ncu (--set full) of the default and old
# select kernels on random and falling rows.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s28c.tar.xz
B=$(realpath build)
{ echo "binaries of ${1:-?}"; uptime; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; } >$O
for t in test_topk_rows_gpu test_topk_rows_gpu_old test_topk_rows_gpu_nofs test_topk_rows_gpu_mb4 test_topk_rows_gpu_m16; do
  (cd $B && timeout 100 ./$t) >$R/$t.txt 2>&1; echo "$t exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/$t.txt)" >>$O
done
pack
timeout 150 python3 docs/perf/runs/2026-12-04-h200-s28-a/probe_topk_rows_ab.py new=$B/libgpuprims.so old=$B/libgpuprims_old.so nofs=$B/libgpuprims_nofs.so mb4=$B/libgpuprims_mb4.so m16=$B/libgpuprims_m16.so >$R/probe_topk.txt 2>&1
echo "probe topk exit $? [$((SECONDS - T0))s]" >>$O
pack
for v in new old; do
  lib=$B/libgpuprims.so; [ $v = old ] && lib=$B/libgpuprims_old.so
  timeout 120 ncu --clock-control none --set full --import-source no -k regex:gp_topk_rows_select -c 2 -o $R/ncu_$v python3 docs/perf/runs/2026-12-04-h200-s28-c/probe_ncu_topk.py $lib >$R/ncu_$v.log 2>&1
  echo "ncu $v exit $? [$((SECONDS - T0))s]" >>$O
  ncu -i $R/ncu_$v.ncu-rep --page details >$R/ncu_$v.txt 2>&1
  ncu -i $R/ncu_$v.ncu-rep --page source --csv --print-source sass >$R/ncu_${v}_sass.csv 2>$R/ncu_${v}_sass.err
  rm -f $R/ncu_$v.ncu-rep
  pack
done
echo "done [$((SECONDS - T0))s]" >>$O
pack

#!/usr/bin/env bash
# s28-d (2026-12-04): binaries of $1. topk_rows.cu's chunk path in fewer operations an
# element (the key as x ^ (sign & a) ^ b, a min for the lane's best, a <= test against
# the threshold, 32-bit positions, full chunks unguarded): default against s28-c's
# (c8: c8f16e0's source), 16 registers a chunk (m16), the merge of the first lane bests
# (nofs) and the session's first topk_rows.cu (old, 5e8ae52): test_topk_rows_gpu of
# each, memcheck of the default's, s28-a's A/B probe, ncu of the default; then the
# Python suites topk_rows and argsort (2^13 .. 2^17) against torch with the default.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s28d.tar.xz
B=$(realpath build); PY=$(realpath python)
{ echo "binaries of ${1:-?}"; uptime; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; } >$O
for t in test_topk_rows_gpu test_topk_rows_gpu_old test_topk_rows_gpu_m16 test_topk_rows_gpu_nofs; do
  (cd $B && timeout 100 ./$t) >$R/$t.txt 2>&1; echo "$t exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/$t.txt)" >>$O
done
(cd $B && timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_topk_rows_gpu) >$R/memcheck.txt 2>&1
echo "memcheck test_topk_rows_gpu exit $? [$((SECONDS - T0))s] $(tail -n 2 $R/memcheck.txt | tr '\n' ' ')" >>$O
pack
timeout 150 python3 docs/perf/runs/2026-12-04-h200-s28-a/probe_topk_rows_ab.py new=$B/libgpuprims.so c8=$B/libgpuprims_c8.so old=$B/libgpuprims_old.so m16=$B/libgpuprims_m16.so nofs=$B/libgpuprims_nofs.so >$R/probe_topk.txt 2>&1
echo "probe topk exit $? [$((SECONDS - T0))s]" >>$O
pack
timeout 90 ncu --clock-control none --set full --import-source no -k regex:gp_topk_rows_select -c 2 -o $R/ncu_new python3 docs/perf/runs/2026-12-04-h200-s28-c/probe_ncu_topk.py $B/libgpuprims.so >$R/ncu_new.log 2>&1
echo "ncu exit $? [$((SECONDS - T0))s]" >>$O
ncu -i $R/ncu_new.ncu-rep --page details >$R/ncu_new.txt 2>&1
ncu -i $R/ncu_new.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip >$R/ncu_new_sass.csv.gz
rm -f $R/ncu_new.ncu-rep
pack
export GPUPRIMS_LIBRARY=$B/libgpuprims.so
(cd /tmp && PYTHONPATH=$PY timeout 150 python3 -m gpuprims.bench --suites topk_rows,argsort --sizes 8192,16384,32768,65536,131072 --peers torch --json $R/py.json) >$R/py.txt 2>&1
echo "bench exit $? [$((SECONDS - T0))s]" >>$O
pack

#!/usr/bin/env bash
# First GPU call of the fifteenth session (2026-12-02): binaries of commit $1 (Release,
# sm_90) in c15a.tar.xz. probe_ab2.py (this folder): the 2^28 Python sum on four data
# sets in one process, alternated, with nvidia-smi sampling clocks and power; then ncu
# of the exact kernel on each data set (SM clock, instructions, DRAM).
set -u
R=/tmp/r; mkdir -p $R
tar xf c15a.tar.xz
export GPUPRIMS_LIBRARY=$(realpath build)/libgpuprims.so PYTHONPATH=$PWD/python
D=docs/perf/runs/2026-12-02-h200-s15-a
echo "binaries of ${1:-?}" >$R/out.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 100 >$R/smi.csv 2>&1 &
SMI=$!
timeout 200 python3 $D/probe_ab2.py 6 >>$R/out.txt 2>&1
kill $SMI
timeout 150 ncu --clock-control none -k regex:gp_sum_exact --metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second --csv python3 $D/probe_ab2.py ncu >$R/ncu.csv 2>&1
grep -v '^"ID"' $R/ncu.csv | grep '^"' | awk -F'","' '{print $1, $13, $15}' >>$R/out.txt
tar czf $OUT/r.tgz -C /tmp r
cat $R/out.txt

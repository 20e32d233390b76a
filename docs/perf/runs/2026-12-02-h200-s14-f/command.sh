#!/usr/bin/env bash
# Sixth GPU call of the fourteenth session (2026-12-02): s14-d's binaries (c14d.tar.xz,
# commit $1): probe_ab.py (this folder) over data x first call x result place, the
# host wait both ways, and ncu of the exact kernel on the bench's data.
set -u
R=/tmp/r; mkdir -p $R
tar xf c14d.tar.xz
B=build
export GPUPRIMS_LIBRARY=$(realpath $B)/libgpuprims.so PYTHONPATH=$PWD/python
P=docs/perf/runs/2026-12-02-h200-s14-f/probe_ab.py
echo "binaries of ${1:-?}" >$R/out.txt
for a in "bench none host" "f32normal none host" "bench numpy host" "bench none keep" "bench_copy none host" "f32normal numpy host"; do
  timeout 60 python3 $P $a >>$R/out.txt 2>&1
done
GPUPRIMS_HOST_WAIT=spin timeout 60 python3 $P bench none host >>$R/out.txt 2>&1; echo "(the line above: GPUPRIMS_HOST_WAIT=spin)" >>$R/out.txt
timeout 100 ncu --clock-control none -k regex:gp_sum_exact --launch-skip 2 --launch-count 2 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv python3 $P bench none keep >$R/ncu_bench.csv 2>&1
timeout 100 ncu --clock-control none -k regex:gp_sum_exact --launch-skip 2 --launch-count 2 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv python3 $P f32normal none keep >$R/ncu_f32normal.csv 2>&1
grep -h "gpu__time\|inst_exec" $R/ncu_*.csv | awk -F'","' '{print $13, $15}' >>$R/out.txt
tar czf $OUT/r.tgz -C /tmp r
cat $R/out.txt

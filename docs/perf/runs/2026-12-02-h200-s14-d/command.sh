#!/usr/bin/env bash
# Fourth GPU call of the fourteenth session (2026-12-02): binaries of commit $1 in
# c14d.tar.xz (libgpuprims.so and gpuprims, Release, sm_90). Why gpuprims.sum of a 2^28
# f32 torch tensor takes ~356 us from Python where the C bench's kernel takes ~256 us:
# probe_sum.py (this folder), ncu of the exact kernel under it, the C bench beside.
set -u
R=/tmp/r; mkdir -p $R
tar xf c14d.tar.xz
B=build
export GPUPRIMS_LIBRARY=$(realpath $B)/libgpuprims.so PYTHONPATH=$PWD/python
P=docs/perf/runs/2026-12-02-h200-s14-d/probe_sum.py
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; env | grep -i -E "PYTORCH|CUDA_" ; } >$R/summary.txt
timeout 60 $B/gpuprims bench reduce --dtype f32 --op sum --n 2^24,2^28 --max-time 0.2 --quiet >$R/cbench.txt 2>&1
timeout 200 python3 $P 28 >$R/probe28.txt 2>&1; echo "probe 28 exit $?" >>$R/summary.txt
timeout 100 ncu --clock-control none -k regex:gp_sum_exact --metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed --csv python3 $P 28 --ncu >$R/ncu28.csv 2>$R/ncu28.err; echo "ncu exit $?" >>$R/summary.txt
timeout 100 python3 $P 24 >$R/probe24.txt 2>&1; echo "probe 24 exit $?" >>$R/summary.txt
tar czf $OUT/r.tgz -C /tmp r
cat $R/summary.txt $R/cbench.txt $R/probe28.txt

#!/usr/bin/env bash
# Second GPU call of the fourteenth session (2026-12-02): s14-a's binaries again
# (c14a.tar.xz, commit $1; s14-a's sum JSON did not come back: more than 8 files in $OUT).
# The exact SUM A/B (gpuprims: Fast2Sum; gpuprims_x0: TwoSum, the commit before) in two
# alternated rounds, then ncu of one F32 / F64 exact-SUM launch each at 2^20 and 2^28.
# Everything is written into $OUT/r.tgz.
set -u
R=/tmp/r; mkdir -p $R
tar xf c14a.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; cat /proc/loadavg; } >$R/summary.txt
N=2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^23,2^24,2^25,2^26,2^28,2^30
for r in 1 2; do
  for v in new x0; do
    g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
    timeout 100 $g bench reduce --dtype f32,f64 --op sum --n $N --max-time 0.15 --quiet --json $R/sum_${v}_r$r.json >$R/sum_${v}_r$r.txt 2>&1
    echo "sum $v r$r exit $?" >>$R/summary.txt
  done
done
M=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
for v in new x0; do
  g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
  for d in f32 f64; do
    for n in 2^20 2^28; do
      timeout 60 ncu --clock-control none -k regex:gp_sum_exact --launch-skip 3 --launch-count 1 --metrics $M --csv \
        $g bench reduce --dtype $d --op sum --n $n --max-time 0.02 --min-samples 3 --no-peers --quiet >$R/ncu_${v}_${d}_$n.csv 2>$R/ncu_${v}_${d}_$n.err
      echo "ncu $v $d $n exit $?" >>$R/summary.txt
    done
  done
done
tar czf $OUT/r.tgz -C /tmp r
cat $R/summary.txt

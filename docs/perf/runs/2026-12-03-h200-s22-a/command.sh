#!/usr/bin/env bash
# s22-a (2026-12-03, twenty-second session): why the offsets span kernel moves 64 MiB in
# 43-46 us. Binaries of $1 (gpuprims = head) and variants of reduce_offsets.cu:
# mb3/mb2 (span kernel __launch_bounds__ min blocks 3/2), pipe2 (gp_seg_range loads the
# next batch before adding this one, + mb2), b8s2 (8 vectors a batch, + mb2).
# ncu full sections of the span kernel (large, f32 sum; i32 max) and of gp_reduce's exact
# kernel at 2^24; variants' segments tests; offsets benches two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s22a.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for v in "" _pipe2 _b8s2; do
  timeout 60 $B/test_reduce_segments_gpu$v >$R/test$v.log 2>&1
  echo "test_reduce_segments_gpu$v exit $? ($(grep -h passed $R/test$v.log | tail -1))" >>$O
done
echo "[$((SECONDS - T0))s] ncu" >>$O; pack
N="ncu --clock-control none"
$N --set full -k regex:gp_off_span --launch-skip 8 --launch-count 1 -o $R/span_large $B/gpuprims bench reduce --offsets large --n 2^24 --dtype f32 --op sum --no-peers --max-time 0.01 --quiet >$R/ncu_run1.txt 2>&1
$N --set full -k regex:gp_off_span --launch-skip 8 --launch-count 1 -o $R/span_large_mb2 $B/gpuprims_mb2 bench reduce --offsets large --n 2^24 --dtype f32 --op sum --no-peers --max-time 0.01 --quiet >$R/ncu_run2.txt 2>&1
$N --set full -k regex:gp_sum_exact_kernel --launch-skip 8 --launch-count 1 -o $R/exact_24 $B/gpuprims bench reduce --n 2^24 --dtype f32 --op sum --no-peers --max-time 0.01 --quiet >$R/ncu_run3.txt 2>&1
for f in span_large span_large_mb2 exact_24; do
  ncu -i $R/$f.ncu-rep --page details >$R/$f.details.txt 2>&1
  ncu -i $R/$f.ncu-rep --page source --csv --print-source sass >$R/$f.sass.csv 2>&1
done
rm -f $R/exact_24.ncu-rep
echo "[$((SECONDS - T0))s] benches" >>$O; pack
K=uniform,powerlaw,one,large,mix
for r in 1 2; do
  for v in gpuprims gpuprims_mb3 gpuprims_mb2 gpuprims_pipe2 gpuprims_b8s2; do
    [ $((SECONDS - T0)) -lt 400 ] || break
    timeout 60 $B/$v bench reduce --offsets $K --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/off_sum_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench reduce --offsets $K --n 2^24 --dtype i32 --op max --max-time 0.05 --quiet >$R/off_max_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

#!/usr/bin/env bash
# Seventh GPU call of the fifteenth session (2026-12-02): gpuprims of commit $1 (Release,
# sm_90) in c15g.tar.xz. Measurement only: the F64 exact SUM on each data law, and F32
# row sums of normal and lognormal data, against CUB in the same process.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
tar xf c15g.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$R/summary.txt
for d in uniform normal lognormal wide; do
  timeout 60 $B/gpuprims bench reduce --dtype f64 --n 2^16,2^20,2^24,2^28 --data $d --max-time 0.25 --quiet --json $R/f64_$d.json >$R/f64_$d.txt 2>&1
done
for d in normal lognormal; do
  timeout 60 $B/gpuprims bench reduce --dtype f32 --rows 64,1024,16384 --n 2^26 --data $d --max-time 0.25 --quiet --json $R/rows_$d.json >$R/rows_$d.txt 2>&1
done
echo "[$((SECONDS - T0))s] done" >>$R/summary.txt
tar czf $OUT/r.tgz -C /tmp r
cat $R/summary.txt; grep -h "^gpuprims\|^cub" $R/*.txt

#!/usr/bin/env bash
# s26-race (2026-12-04, twenty-sixth session): binaries of $1 (the last kernels).
# racecheck of the wide one-sweep shape changed in s26-d (u64/u64 and f64/u64 pairs,
# device-wide, above 2^19 keys where that shape runs; summary_small_shape.txt: a first
# call at 300001, which the small shape sorts) and of the whole-GPU rank sort's cooperative path, through the CLI.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s26r.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
S1="--no-seed --no-segments --no-peers --max-time 0.001 --min-samples 1 --warmup 0 --quiet"
for m in "--dtype u64 --pairs u64 --sizes 524289" "--dtype f64 --pairs u64 --desc --sizes 600001" "--dtype u32 --sizes 3001,2048"; do
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $B/gpuprims bench sort --algo auto $m $S1 >$R/race.log 2>&1
  echo "racecheck [$m] exit $? ($(grep -h SUMMARY $R/race.log | tail -1)) [$((SECONDS - T0))s]" >>$O
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

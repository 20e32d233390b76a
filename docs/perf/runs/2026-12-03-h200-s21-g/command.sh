#!/usr/bin/env bash
# s21-g (2026-12-03, twenty-first session): binaries of $1 (class groups out of line,
# the span geometry in shared memory) against gpuprims_e8 (e8dbff5, s21-final's).
# Tests: test_reduce_segments_gpu, its memcheck and racecheck. Benches: --offsets at
# 2^24 (f32 every kind, f64 uniform and tiny), uniform at 2^27, i32 max, alternated,
# two rounds, CUB in each process.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s21g.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 60 $B/test_reduce_segments_gpu >$R/test.log 2>&1; echo "test_reduce_segments_gpu exit $? ($(tail -1 $R/test.log))" >>$O
for tool in memcheck racecheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu >$R/$tool.log 2>&1
  echo "$tool test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/$tool.log | tail -1); $(grep -h passed $R/$tool.log | tail -1))" >>$O
done
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for r in 1 2; do
  for v in gpuprims gpuprims_e8; do
    [ $((SECONDS - T0)) -lt 200 ] || break
    timeout 40 $B/$v bench reduce --offsets uniform,powerlaw,tiny,one,large,mix --n 2^24 --dtype f32 --op sum --max-time 0.1 --quiet >$R/f32_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench reduce --offsets uniform,tiny --n 2^24 --dtype f64 --op sum --max-time 0.1 --quiet --no-peers >$R/f64_${v}_r$r.txt 2>&1
    timeout 20 $B/$v bench reduce --offsets uniform --n 2^27 --dtype f32 --op sum --max-time 0.1 --quiet --no-peers >$R/n27_${v}_r$r.txt 2>&1
    timeout 20 $B/$v bench reduce --offsets uniform,tiny --n 2^24 --dtype i32 --op max --max-time 0.1 --quiet --no-peers >$R/max_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

#!/usr/bin/env bash
# s23-g (2026-12-04): gpuprims = $1's build (the kept offsets code of fd8188e);
# gpuprims_pdl = reduce_offsets.cu with -DGP_OFF_PDL=1 (the span kernel launched as a
# programmatic dependent of the segment kernel, griddepcontrol). Tests of the variant
# (+ memcheck, racecheck, synccheck), pytest of the offsets/axis tests on its library;
# benches two rounds alternated.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23g.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 60 $B/test_reduce_segments_gpu_pdl >$R/test_pdl.log 2>&1
echo "test_reduce_segments_gpu_pdl exit $? ($(grep -h passed $R/test_pdl.log | tail -1))" >>$O
lib=$(realpath $B)/libgpuprims_pdl.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m pytest -q -rs -p no:cacheprovider tests -k "offsets or axis or segment") >$R/pytest_pdl.log 2>&1
echo "pytest (offsets, axis, segment) on libgpuprims_pdl exit $? ($(tail -1 $R/pytest_pdl.log))" >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for r in 1 2; do
  for v in gpuprims gpuprims_pdl; do
    timeout 60 $B/$v bench reduce --offsets uniform,powerlaw,large,mix,one,tiny --n 2^20,2^24 --dtype f32 --op sum --max-time 0.04 --quiet >$R/off_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench reduce --offsets uniform,powerlaw,large --n 2^24 --dtype f64 --op sum --max-time 0.04 --quiet >$R/off64_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench reduce --offsets powerlaw,large --n 2^24 --dtype i32 --op max --max-time 0.04 --quiet --no-peers >$R/offmax_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu_pdl >$R/$tool.log 2>&1
  echo "$tool test_reduce_segments_gpu_pdl exit $? ($(grep -h SUMMARY $R/$tool.log | tail -1); $(grep -h passed $R/$tool.log | tail -1))" >>$O
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

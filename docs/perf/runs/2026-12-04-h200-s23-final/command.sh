#!/usr/bin/env bash
# s23-final (2026-12-04, twenty-third session): binaries of $1. Verification: the whole
# CTest suite at -j 4 with pytest beside it; memcheck, racecheck and synccheck of
# test_reduce_segments_gpu (the offsets kernels changed). Benches: offsets f32/f64 at
# 2^24 with JSON, f32 at 2^20 and 2^27, rows, CUB beside.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 220 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
timeout 300 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 280 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
timeout 30 $B/gpuprims bench reduce --offsets uniform,powerlaw,tiny,one,large,mix --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet --json $R/offsets.json >$R/offsets.txt 2>&1
timeout 30 $B/gpuprims bench reduce --offsets uniform,powerlaw,large --n 2^20,2^27 --dtype f32 --op sum --max-time 0.05 --quiet >$R/offsets_n.txt 2>&1
timeout 20 $B/gpuprims bench reduce --rows 1024,16384 --n 2^26 --dtype f32 --op sum --max-time 0.05 --quiet >$R/rows.txt 2>&1
echo "[$((SECONDS - T0))s] sanitizers" >>$O; pack
for tool in memcheck racecheck synccheck; do
  [ $((SECONDS - T0)) -lt 460 ] || break
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu >$R/$tool.log 2>&1
  echo "$tool test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/$tool.log | tail -1); $(grep -h passed $R/$tool.log | tail -1))" >>$O
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

#!/usr/bin/env bash
# s21-final (2026-12-03, twenty-first session): binaries of $1 (reduce_offsets.cu as
# kept) and gpuprims_oldseg (91d72fc with this session's bench sources). Verification:
# the whole CTest suite at -j 4 with pytest beside it; memcheck and racecheck of
# test_reduce_segments_gpu. Benches: --offsets of every kind at 2^24 (f32, f64 sum, with
# JSON), powerlaw and uniform at 2^20 and 2^27, i32 max, against the old binary once, CUB
# in each process; rows at 2^26 once (unchanged code path).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s21f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
timeout 300 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 280 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
echo "[$((SECONDS - T0))s] sanitizers" >>$O; pack
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu >$R/$tool.log 2>&1
  echo "$tool test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/$tool.log | tail -1); $(grep -h passed $R/$tool.log | tail -1))" >>$O
done
echo "[$((SECONDS - T0))s] benches" >>$O; pack
K=uniform,powerlaw,tiny,one,large,mix
timeout 60 $B/gpuprims bench reduce --offsets $K --n 2^24 --dtype f32,f64 --op sum --max-time 0.1 --quiet --json $R/offsets.json >$R/offsets.txt 2>&1
timeout 40 $B/gpuprims bench reduce --offsets powerlaw,uniform --n 2^20,2^27 --dtype f32 --op sum --max-time 0.1 --quiet >$R/offsets_n.txt 2>&1
pack
for v in gpuprims gpuprims_oldseg; do
  [ $((SECONDS - T0)) -lt 470 ] || break
  timeout 30 $B/$v bench reduce --offsets $K --n 2^24 --dtype i32 --op max --max-time 0.1 --quiet --no-peers >$R/max_${v}.txt 2>&1
done
[ $((SECONDS - T0)) -lt 480 ] && timeout 30 $B/gpuprims bench reduce --rows 64,1024,16384 --n 2^26 --dtype f32 --op sum --max-time 0.1 --quiet >$R/rows.txt 2>&1
echo "[$((SECONDS - T0))s] done" >>$O; pack

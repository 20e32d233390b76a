#!/usr/bin/env bash
# s22-final (2026-12-03, twenty-second session): binaries of $1 and gpuprims_head
# (8eb966f, the session's start). Verification: the whole CTest suite at -j 4 with
# pytest beside it; the mutant test_reduce_exact_gpu_mutE (F32 window 3 bits too wide)
# must fail; memcheck of test_reduce_exact_gpu (quick) and racecheck of
# test_reduce_segments_gpu. Benches (time left permitting): gp_reduce f32 sum
# 2^16..2^28 and f32 wide, offsets f32/f64 at 2^24 with JSON, rows, CUB beside.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s22f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
timeout 300 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 280 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
echo "[$((SECONDS - T0))s] mutant" >>$O; pack
timeout 60 $B/test_reduce_exact_gpu_mutE >$R/test_mutE.log 2>&1
echo "test_reduce_exact_gpu_mutE (must fail) exit $? ($(grep -h passed $R/test_mutE.log | tail -1); $(grep -c 'window run' $R/test_mutE.log) window lines)" >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for v in gpuprims gpuprims_head; do
  timeout 40 $B/$v bench reduce --n 2^16,2^20,2^22,2^24,2^26,2^28 --dtype f32 --op sum --max-time 0.03 --quiet >$R/sum_${v}.txt 2>&1
  timeout 20 $B/$v bench reduce --n 2^20,2^24 --dtype f32 --op sum --data wide --max-time 0.03 --quiet >$R/wide_${v}.txt 2>&1
  pack
done
echo "[$((SECONDS - T0))s] sanitizers" >>$O; pack
[ $((SECONDS - T0)) -lt 340 ] && { GP_TEST_QUICK=1 timeout 50 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/memcheck_exact.log 2>&1
  echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(grep -h SUMMARY $R/memcheck_exact.log | tail -1); $(grep -h passed $R/memcheck_exact.log | tail -1))" >>$O; }
[ $((SECONDS - T0)) -lt 330 ] && { timeout 50 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_reduce_segments_gpu >$R/racecheck.log 2>&1
  echo "racecheck test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/racecheck.log | tail -1); $(grep -h passed $R/racecheck.log | tail -1))" >>$O; }
[ $((SECONDS - T0)) -lt 360 ] && timeout 20 $B/gpuprims bench reduce --offsets uniform,powerlaw,tiny,one,large,mix --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet --json $R/offsets.json >$R/offsets.txt 2>&1
[ $((SECONDS - T0)) -lt 375 ] && timeout 10 $B/gpuprims bench reduce --rows 64,1024,16384 --n 2^26 --dtype f32 --op sum --max-time 0.05 --quiet >$R/rows.txt 2>&1
echo "[$((SECONDS - T0))s] done" >>$O; pack

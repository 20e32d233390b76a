#!/usr/bin/env bash
# s24-final (2026-12-04, twenty-fourth session): binaries of $1 (PDL chain in the radix
# sort, trigger after the look-back; the wide upfront histogram from 2^22 keys; 16-bit
# counts off). Verification: the whole CTest suite at -j 4 with pytest and the variant
# radix tests beside it (p16 = -DGP_RX_HIST_P16=1; p16t and hw10 also take the wide
# histogram from 2^10 keys, so the test's device-wide sorts use it); memcheck and
# synccheck of the radix test (main, p16t), memcheck and racecheck of
# test_reduce_segments_gpu (the offsets span launch moved to common/pdl.cuh). Benches:
# u64 pairs and keys, main against p16, alternated, two rounds.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s24f.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 220 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(for t in p16t p16 hw10; do timeout 120 $B/test_sort_radix_gpu_$t >$R/test_$t.log 2>&1; echo "test_sort_radix_gpu_$t exit $? ($(grep -h passed $R/test_$t.log | tail -1))" >$R/vt_$t.txt; done) &
VP=$!
timeout 300 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 280 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $VP; cat $R/vt_*.txt >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for r in 1 2; do
  for v in gpuprims gpuprims_p16; do
    timeout 90 $B/$v bench sort --algo auto --dtype u64 --pairs u64 --sizes 2^22,2^24,2^28 --no-seed --no-segments --max-time 0.25 --quiet >$R/p64_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench sort --algo auto --dtype u64 --sizes 2^22,2^24,2^28 --no-seed --no-segments --max-time 0.15 --quiet >$R/u64_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
timeout 90 $B/gpuprims bench sort --algo auto --sizes 2^11,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30 --no-seed --no-segments --max-time 0.15 --quiet --json $R/u32.json >$R/u32.txt 2>&1
echo "[$((SECONDS - T0))s] sanitizers" >>$O; pack
GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$R/memcheck_radix.log 2>&1
echo "memcheck test_sort_radix_gpu (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_radix.log | tail -1); $(grep -h passed $R/memcheck_radix.log | tail -1))" >>$O
GP_TEST_QUICK=1 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu_p16t >$R/memcheck_p16t.log 2>&1
echo "memcheck test_sort_radix_gpu_p16t (quick 1) exit $? ($(grep -h SUMMARY $R/memcheck_p16t.log | tail -1); $(grep -h passed $R/memcheck_p16t.log | tail -1))" >>$O
GP_TEST_QUICK=2 timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 $B/test_sort_radix_gpu_p16t >$R/synccheck_p16t.log 2>&1
echo "synccheck test_sort_radix_gpu_p16t (quick 2) exit $? ($(grep -h SUMMARY $R/synccheck_p16t.log | tail -1); $(grep -h passed $R/synccheck_p16t.log | tail -1))" >>$O
pack
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/test_reduce_segments_gpu >$R/${tool}_seg.log 2>&1
  echo "$tool test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/${tool}_seg.log | tail -1); $(grep -h passed $R/${tool}_seg.log | tail -1))" >>$O
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

#!/usr/bin/env bash
# Final GPU call of the fifteenth session (2026-12-02): binaries of commit $1 (Release,
# sm_90) in c15final.tar.xz. The whole CTest suite at -j 4 with pytest and test_dist_gpu
# p1 beside it, memcheck (quick) of the exact SUM and of the
# row sums; then F32 row sums of uniform and lognormal data against CUB, with
# gpuprims_segprev (reduce_segments.cu of 81a4cf6) alternated.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c15final.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
(GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/san.log 2>&1; echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(tail -1 $R/san.log))" >$R/san.sum
 GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_segments_gpu >$R/san_seg.log 2>&1; echo "memcheck test_reduce_segments_gpu (quick) exit $? ($(tail -1 $R/san_seg.log))" >>$R/san.sum) &
SP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
echo "[$((SECONDS - T0))s] rows" >>$O; pack
for d in uniform lognormal; do for v in gpuprims gpuprims_segprev; do
  [ $((SECONDS - T0)) -lt 270 ] && timeout 60 $B/$v bench reduce --dtype f32 --rows 64,1024,16384 --n 2^26 --data $d --max-time 0.25 --quiet --json $R/rows_${d}_$v.json >$R/rows_${d}_$v.txt 2>&1
done; done
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O; for f in $R/rows_*.txt; do echo "== $(basename $f)"; grep "^gpuprims" $f | awk '{t=""; for(i=1;i<=NF;i++) if ($i=="us"||$i=="ms") t=$(i-1)" "$i; r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; printf "%s %s %s | ", $5, t, r}'; echo; done

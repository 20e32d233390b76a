#!/usr/bin/env bash
# Final GPU call of the fourteenth session (2026-12-02): binaries of commit $1 (Release,
# sm_90) in c14f.tar.xz. The whole CTest suite at -j 4 with pytest and test_dist_gpu p1
# beside it, memcheck (quick) of the exact SUM; then s14-f's probe (probe_ab.py there:
# data x first call x result place for the 2^28 Python sum). Everything into $OUT/r.tgz.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c14f.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/san.log 2>&1 &
SP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; echo "memcheck test_reduce_exact_gpu (quick) exit $? ($(tail -1 $R/san.log))" >>$O
echo "[$((SECONDS - T0))s] probe" >>$O; pack
export GPUPRIMS_LIBRARY=$lib PYTHONPATH=$PWD/python
P=docs/perf/runs/2026-12-02-h200-s14-f/probe_ab.py
for a in "bench none host" "f32normal none host" "bench numpy host" "bench none keep" "bench_copy none host"; do
  [ $((SECONDS - T0)) -lt 540 ] && timeout 40 python3 $P $a >>$R/probe.txt 2>&1
done
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O $R/probe.txt

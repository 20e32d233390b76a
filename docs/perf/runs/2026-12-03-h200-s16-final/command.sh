#!/usr/bin/env bash
# Final GPU call of the sixteenth session (2026-12-03), cut to what 347 s of device time
# left after seven refused starts allowed (257 s): binaries of commit $1 (Release, sm_90) in
# c16final.tar.xz. The CTest suites that run the exact SUM (reduce, dist, integrate,
# cli_reduce) at -j 4, pytest's sum / reduce tests, test_dist_gpu p1; compute-sanitizer
# memcheck and synccheck (quick) of test_reduce_exact_gpu, and racecheck of `gpuprims
# reduce` on wide data whose warps take dense steps (f32 2^22, f64 2^25 + 3), each
# result against the CPU backend's.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c16final.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
python3 - <<'PY'
import numpy as np
g = np.random.default_rng(16)
for t, n in ((np.float32, 1 << 22), (np.float64, (1 << 25) + 3)):
    z = g.standard_normal(n) * np.exp2(g.integers(-30, 31, n).astype(np.float64))
    np.save(f"/tmp/wide_{np.dtype(t).name}.npy", z.astype(t))
PY
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 90 python3 -m pytest -q -rs -p no:cacheprovider -k "sum or reduce" gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
san() { timeout $3 compute-sanitizer --tool $1 --error-exitcode 9 ${@:4} >$R/san_$1_$2.log 2>&1
  echo "$1 $2 exit $? ($(grep -E 'SUMMARY' $R/san_$1_$2.log | tail -1); result $(grep -v '^=' $R/san_$1_$2.log | tail -1))" >>$R/san.sum; }
(GP_TEST_QUICK=1 san memcheck exact_test 40 $B/test_reduce_exact_gpu
 GP_TEST_QUICK=1 san synccheck exact_test 30 $B/test_reduce_exact_gpu
 for t in float32 float64; do san racecheck wide_$t 45 $B/gpuprims reduce /tmp/wide_$t.npy --backend cuda; done) &
SP=$!
for t in float32 float64; do for b in cuda cpu; do
  echo "gpuprims reduce wide_$t --backend $b: $(timeout 30 $B/gpuprims reduce /tmp/wide_$t.npy --backend $b 2>&1 | tail -1)" >>$O
done; done
GPUPRIMS_DIST_TIMEOUT=60 timeout 60 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 100 ctest --test-dir $B -j 4 -R "reduce|dist|cli_reduce|integrate_gpu|exact" --output-on-failure --timeout 95 >$R/ctest.log 2>&1
echo "[$((SECONDS - T0))s] ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
while kill -0 $SP 2>/dev/null && [ $((SECONDS - T0)) -lt 135 ]; do sleep 1; done
kill $SP 2>/dev/null; cat $R/san.sum >>$O; echo "(sanitizer chain cut at 135 s where it had not ended)" >>$O
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O

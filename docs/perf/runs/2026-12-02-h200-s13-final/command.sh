#!/usr/bin/env bash
# Final GPU call of the thirteenth session (2026-12-02): binaries of the commit given as $1
# (Release, sm_90) in c13f.tar.xz. The whole CTest suite at -j 4 with pytest and
# test_dist_gpu p1 beside it, memcheck (quick) of the sort suites; compute-sanitizer on
# the new paths through the CLI (the wide one-sweep tiles of an f64 argsort with u64
# indices, the top-k prefilter); then the benches: u64/u64 pairs (the wide tiles), and
# offsets segments with JSON for the picture.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
O=$OUT/summary.txt
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$O; save 2>/dev/null; }
tar xf c13f.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; nproc; cat /proc/loadavg; } >>$O
s "ctest + pytest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
printf '%s\n' "memcheck test_sort_gpu 1 300" "memcheck test_sort_radix_gpu 1 300" \
  | xargs -P 2 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1 &
SP=$!
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$L/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $L/dist_p1.log))" >>$O
timeout 380 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$O
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$O
s "waiting for sanitizers"
wait $SP
cat $L/san_summary.txt >>$O
s "sanitizers on the CLI: wide argsort, top-k prefilter"
python3 -c "
import numpy as np
r = np.random.default_rng(11)
a = r.standard_normal(600001); a[::97] = 0.5; a[5] = np.nan
np.save('/tmp/f64.npy', a)
np.save('/tmp/u21.npy', r.random(2**21 + 3, dtype=np.float32))"
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims sort /tmp/f64.npy /tmp/f64_$tool.npy --argsort --backend cuda >/dev/null 2>$L/cs.err
  echo "$tool argsort f64 600001 (wide tiles): exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/cs.err | tail -1))" >>$O
done
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/gpuprims topk /tmp/u21.npy -k 64 --backend cuda >/dev/null 2>$L/cs.err
echo "memcheck topk u21 k=64: exit $? ($(grep -E 'ERROR SUMMARY' $L/cs.err | tail -1))" >>$O
python3 - >>$O <<'PY'
import numpy as np
a = np.load("/tmp/f64.npy"); ref = np.argsort(a, kind="stable")
for t in ("memcheck", "racecheck", "synccheck"):
    try:
        print("argsort f64 output (%s run):" % t, "matches numpy" if np.array_equal(np.load("/tmp/f64_%s.npy" % t), ref) else "DIFFERS")
    except Exception as e:
        print("argsort f64 output (%s run): missing (%s)" % (t, e))
PY
s "benches"
timeout 90 $B/gpuprims bench sort --algo auto --dtype u64 --pairs u64 --max-time 0.4 --quiet --no-seed --no-segments --sizes 2^20,2^22,2^24,2^26,2^28 --json $OUT/pairs64.json >$OUT/pairs64.txt 2>&1
echo "pairs u64/u64 exit $?" >>$O
timeout 90 $B/gpuprims bench sort --max-time 0.3 --quiet --no-seed --sizes 2^11 --segments 1024 --offsets mix,powerlaw,large,uniform,tiny,one --json $OUT/offsets.json >$OUT/offsets.txt 2>&1
echo "offsets exit $?" >>$O
s done

#!/usr/bin/env bash
# First GPU call of the fourteenth session (2026-12-02): binaries of the commit given as
# $1 (Release, sm_90) in c14a.tar.xz, with two variants built from the commit before
# (scripts/variant_build.sh): gpuprims_x0 (reduce_exact.cu with TwoSum) and gpuprims_s0
# (reduce_segments.cu with TwoSum). Tests of what changed (the exact SUM's Fast2Sum, the
# segmented reduce, radix's composite rule), sanitizers, then the A/B benches alternated.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
O=$OUT/summary.txt
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$O; save 2>/dev/null; }
tar xf c14a.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; nproc; cat /proc/loadavg; } >>$O
s "tests"
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$L/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $L/dist_p1.log))" >>$O
timeout 300 ctest --test-dir $B -j 4 -R "reduce|sort_radix|sort_gpu|rows" --output-on-failure --timeout 280 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "Test +#|tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$O
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$O
s "sanitizers"
san() { GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (quick): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
printf '%s\n' "memcheck test_reduce_exact_gpu" "racecheck test_reduce_exact_gpu" "memcheck test_reduce_segments_gpu" "synccheck test_reduce_exact_gpu" \
  | xargs -P 4 -L 1 bash -c 'san "$@"' _ >>$O 2>&1
s "benches: exact SUM A/B"
N=2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^23,2^24,2^25,2^26,2^28,2^30
for r in 1 2; do
  for v in new x0; do
    g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
    timeout 100 $g bench reduce --dtype f32,f64 --op sum --n $N --max-time 0.12 --quiet --json $OUT/sum_${v}_r$r.json >$OUT/sum_${v}_r$r.txt 2>&1
    echo "sum $v r$r exit $?" >>$O
  done
done
s "benches: rows A/B"
for r in 1 2; do
  for v in new s0; do
    g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
    timeout 60 $g bench reduce --dtype f32,f64 --op sum --rows 32,1024,4096,65536 --n 2^26 --max-time 0.12 --quiet --json $OUT/rows_${v}_r$r.json >$OUT/rows_${v}_r$r.txt 2>&1
    echo "rows $v r$r exit $?" >>$O
  done
done
s done

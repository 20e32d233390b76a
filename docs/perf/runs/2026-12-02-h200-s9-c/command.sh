#!/usr/bin/env bash
# Third GPU call of the ninth session (2026-12-02): binaries of the commit in
# summary.txt (Release, sm_90) in c3.tar.xz, beside variants: gpuprims_prev
# (reduce_exact.cu of 898361c, before this session), gpuprims_s9a (reduce_exact.cu of
# ce4c513), gpuprims_argna0 (argreduce.cu with -DGP_ARG_NOALLOC_MAX_BYTES=0: no
# no_allocate loads), gpuprims_auto128 (reduce_auto.cu with
# -DGP_AUTO_NOALLOC_MAX_BYTES=134217728). A/B (two rounds alternated, CUB in each round
# of the new binary), then the whole CTest suite at -j 4 with pytest, test_dist_gpu p1
# and compute-sanitizer memcheck over the reduction suites beside it.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c3.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ab
N="--n 2^10,2^12,2^13,2^14,2^16,2^18,2^20,2^22,2^23,2^24,2^25,2^26,2^28,2^30"
NA="--n 2^20,2^22,2^24,2^25,2^26,2^28,2^30"
for r in 1 2; do
  for v in "" _prev _s9a; do
    p=--no-peers; [ -z "$v" ] && p=
    timeout 90 $B/gpuprims$v bench reduce --max-time 0.12 --quiet $p --dtype f32,f64 --op sum $N --json $L/ab${v:-_new}_r$r.json >$L/ab${v:-_new}_r$r.txt 2>&1
    echo "ab${v:-_new} round $r exit $?" >>$OUT/summary.txt
  done
  for v in "" _argna0; do
    p=--no-peers; [ -z "$v" ] && p=
    timeout 90 $B/gpuprims$v bench reduce --max-time 0.12 --quiet $p --dtype f32,i32,f64 --op argmin,argmax $NA --json $L/arg${v:-_new}_r$r.json >$L/arg${v:-_new}_r$r.txt 2>&1
    echo "arg${v:-_new} round $r exit $?" >>$OUT/summary.txt
  done
  for v in "" _auto128; do
    p=--no-peers; [ -z "$v" ] && p=
    timeout 90 $B/gpuprims$v bench reduce --max-time 0.12 --quiet $p --dtype f32,f64 --op min,max --n 2^23,2^24,2^25,2^26 --json $L/auto${v:-_new}_r$r.json >$L/auto${v:-_new}_r$r.txt 2>&1
    echo "auto${v:-_new} round $r exit $?" >>$OUT/summary.txt
  done
done
s "ctest + pytest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
{ printf '%s\n' "memcheck test_reduce_exact_gpu 1 300" "memcheck test_argreduce_gpu 1 300" \
  "memcheck test_reduce_gpu 1 300" "racecheck test_reduce_exact_gpu 1 300" \
  | xargs -P 4 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1; } &
SP=$!
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$L/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $L/dist_p1.log))" >>$OUT/summary.txt
timeout 380 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s "waiting for sanitizers"
wait $SP
cat $L/san_summary.txt >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Final GPU call of the seventh session (2026-12-02): binaries of the commit in
# summary.txt (Release, sm_90) carried as gpubin.tar.xz (scripts/pack_gpubin.sh) plus
# gpuprims_xsold (-DGP_XS_INT_FOLD=0: the exact SUM without the window fold) in
# xsold.tar.xz. On the fresh host first: the SUM bench beside CUB through gp_reduce_device
# (the default) and gp_reduce (--pointer-query), the kernel A/B against gpuprims_xsold;
# then the whole CTest suite at -j 4 with compute-sanitizer over the reduction suites
# beside it, then pytest -rs.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz; tar xf xsold.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s bench
N="--n 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,2^30"
timeout 60 $B/gpuprims bench reduce --max-time 0.3 --quiet --dtype f32,f64 --op sum $N --json $L/sum.json >$L/sum.txt 2>&1
echo "bench sum exit $?" >>$OUT/summary.txt
timeout 60 $B/gpuprims bench reduce --max-time 0.3 --quiet --dtype f32,f64 --op sum $N --pointer-query --json $L/sum_query.json >$L/sum_query.txt 2>&1
echo "bench sum --pointer-query exit $?" >>$OUT/summary.txt
for r in 1 2; do for v in "" _xsold; do
  timeout 60 $B/gpuprims$v bench reduce --max-time 0.2 --quiet --dtype f64 --op sum $N --json $L/ab${v}_r$r.json >$L/ab${v}_r$r.txt 2>&1
  echo "ab$v round $r exit $?" >>$OUT/summary.txt
done; done
s "ctest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
{ printf '%s\n' "memcheck test_reduce_exact_gpu 1 300" "racecheck test_reduce_exact_gpu 1 300" \
  "synccheck test_reduce_exact_gpu 1 300" "memcheck test_reduce_gpu 1 300" "synccheck test_reduce_gpu 1 300" \
  | xargs -P 5 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1; } &
SP=$!
timeout 400 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 80 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s "waiting for sanitizers"
wait $SP
cat $L/san_summary.txt >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# First GPU call of the ninth session (2026-12-02): binaries of the working tree in
# summary.txt's COMMIT plus the session's uncommitted reduce_exact.cu (Release, sm_90),
# in c1.tar.xz; gpuprims_prev: reduce_exact.cu of 898361c. A/B of the shorter exact-SUM
# tail (two rounds alternated, F32 and F64 2^10..2^24 and 2^28; CUB in the first round,
# also with a warm L2), kernel code sizes, then the reduction suites, sanitizers
# (memcheck, racecheck, synccheck of test_reduce_exact_gpu; memcheck of test_reduce_gpu),
# test_dist_gpu p1 and pytest.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c1.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ab
N="--n 2^10,2^12,2^13,2^14,2^16,2^17,2^18,2^20,2^22,2^24,2^28"
for r in 1 2; do for v in "" _prev; do
  p=--no-peers; [ -z "$v" ] && [ $r = 1 ] && p=
  timeout 90 $B/gpuprims$v bench reduce --max-time 0.15 --quiet $p --dtype f32,f64 --op sum $N --json $L/ab${v:-_new}_r$r.json >$L/ab${v:-_new}_r$r.txt 2>&1
  echo "ab${v:-_new} round $r exit $?" >>$OUT/summary.txt
done; done
timeout 60 $B/gpuprims bench reduce --max-time 0.15 --quiet --no-flush --dtype f32,f64 --op sum --n 2^10,2^12,2^16,2^20 --json $L/warm.json >$L/warm.txt 2>&1
echo "warm exit $?" >>$OUT/summary.txt
cuobjdump -sass $B/gpuprims 2>/dev/null | awk '/Function :/{f=$3} /\/\*[0-9a-f]+\*\//{c[f]++} END{for(k in c) print c[k], k}' | grep -E "exact|DeviceReduce|SingleTile" | sort -rn | head -30 >$L/sass_sizes.txt 2>&1
s tests
run1() { timeout 300 "$@" >$L/$(basename $1)$2.log 2>&1; echo "$* exit $? ($(tail -1 $L/$(basename $1)$2.log))"; }
san() { GP_TEST_QUICK=1 timeout 300 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=1): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san run1; export B L
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
printf '%s\n' "run1 $B/test_reduce_exact_gpu" "run1 $B/test_reduce_gpu" "run1 $B/test_dist_gpu p1" \
  "san memcheck test_reduce_exact_gpu" "san racecheck test_reduce_exact_gpu" "san synccheck test_reduce_exact_gpu" \
  "san memcheck test_reduce_gpu" \
  | GPUPRIMS_DIST_TIMEOUT=60 xargs -P 7 -L 1 bash -c '"$@"' _ >$L/tests_summary.txt 2>&1
cat $L/tests_summary.txt >>$OUT/summary.txt
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Fourth GPU call of the eighth session (2026-12-02): binaries of the commit in
# summary.txt (Release, sm_90) in c4.tar.xz; gpuprims_prev: reduce_exact.cu of 8d4e392
# (one tile a block at every size). A/B of the half-grid rule for F64 around 2^20 (three
# rounds alternated), then the reduction suites, test_dist_gpu p1, pytest and memcheck.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c4.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ab
N="--n 2^19,600000,800000,2^20,1100000,2^21"
for r in 1 2 3; do for v in "" _prev; do
  p=--no-peers; [ -z "$v" ] && [ $r = 1 ] && p=
  timeout 60 $B/gpuprims$v bench reduce --max-time 0.2 --quiet $p --dtype f64 --op sum $N --json $L/ab${v:-_new}_r$r.json >$L/ab${v:-_new}_r$r.txt 2>&1
  echo "ab${v:-_new} round $r exit $?" >>$OUT/summary.txt
  timeout 60 $B/gpuprims$v bench reduce --max-time 0.2 --quiet --no-peers --dtype f32 --op sum --n 2^20 --json $L/ab32${v:-_new}_r$r.json >$L/ab32${v:-_new}_r$r.txt 2>&1
done; done
s tests
run1() { timeout 300 "$@" >$L/$(basename $1)$2.log 2>&1; echo "$* exit $? ($(tail -1 $L/$(basename $1)$2.log))"; }
san() { GP_TEST_QUICK=1 timeout 300 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=1): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san run1; export B L
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
printf '%s\n' "run1 $B/test_reduce_exact_gpu" "run1 $B/test_reduce_gpu" "run1 $B/test_dist_gpu p1" \
  "san memcheck test_reduce_exact_gpu" "san memcheck test_reduce_gpu" \
  | GPUPRIMS_DIST_TIMEOUT=60 xargs -P 5 -L 1 bash -c '"$@"' _ >$L/tests_summary.txt 2>&1
cat $L/tests_summary.txt >>$OUT/summary.txt
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s done
save

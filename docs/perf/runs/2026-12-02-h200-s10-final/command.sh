#!/usr/bin/env bash
# Final GPU call of the tenth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90) in c4.tar.xz (COMMIT is git-ignored, so the commit is echoed into the
# command). The CLI's first and cached integrate compiles (the whole-kernel JIT),
# `gpuprims bench integrate`'s compile_ms with an empty cache, then the whole CTest
# suite at -j 4 with pytest, test_dist_gpu p1 and compute-sanitizer beside it.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c4.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "commit ${1:-?}"; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s "CLI first and cached compiles"
for e in "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)"; do
  for p in f32 f64; do
    for r in 1 2 3; do
      rm -rf /tmp/clicache
      for run in first cached; do
        o=$(GPUPRIMS_CACHE_DIR=/tmp/clicache $B/gpuprims integrate -v "$e" 0 1 --precision $p 2>&1 | grep -o "compile_ms [0-9.]*")
        echo "cli $e $p $run r$r: $o" >>$OUT/summary.txt
      done
    done
  done
done
for r in 1 2; do
  rm -rf /tmp/benchcache
  GPUPRIMS_CACHE_DIR=/tmp/benchcache timeout 60 $B/gpuprims bench integrate --quiet --no-peers --max-time 0.05 \
    --expr "sin(x)^2" --sizes 2^20 >$L/bench_int_r$r.txt 2>&1
  echo "bench integrate r$r: $(grep -o 'compile_ms [0-9.]*' $L/bench_int_r$r.txt | tr '\n' ' ')" >>$OUT/summary.txt
done
s "ctest + pytest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
{ printf '%s\n' "memcheck test_integrate_gpu 1 300" "memcheck test_reduce_exact_gpu 1 300" \
  "memcheck test_argreduce_gpu 1 300" "racecheck test_integrate_gpu 1 300" \
  | xargs -P 4 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1; } &
SP=$!
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
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

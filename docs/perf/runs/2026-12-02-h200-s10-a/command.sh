#!/usr/bin/env bash
# First GPU call of the tenth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90) in c1.tar.xz. The split integrate JIT against the whole compile:
# kernel times (gpuprims bench integrate, GPUPRIMS_JIT_SPLIT=0 vs default, two rounds
# alternated) and first-compile times on this host (scripts/jit_compile_times.sh); then
# the whole CTest suite at -j 4 with pytest, and compute-sanitizer on the split kernel.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c1.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
export GPUPRIMS_CACHE_DIR=/tmp/gpcache
s "integrate A/B"
for r in 1 2; do
  for mode in split whole; do
    env=GPUPRIMS_JIT_SPLIT=1; [ $mode = whole ] && env=GPUPRIMS_JIT_SPLIT=0
    for e in "x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)"; do
      tag=$(echo "$e" | tr -c 'a-z0-9' '_' | cut -c1-12)
      env $env timeout 60 $B/gpuprims bench integrate --quiet --no-peers --max-time 0.3 \
        --expr "$e" --sizes 2^20,2^24,2^28 --json $L/int_${mode}_${tag}_r$r.json \
        >$L/int_${mode}_${tag}_r$r.txt 2>&1
      echo "int $mode $e round $r exit $?" >>$OUT/summary.txt
    done
  done
done
s "first compiles"
scripts/jit_compile_times.sh $B 5 >$L/jit_times.md 2>&1
cat $L/jit_times.md >>$OUT/summary.txt
s "ctest + pytest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
{ printf '%s\n' "memcheck test_integrate_gpu_split 1 300" "racecheck test_integrate_gpu_split 1 300" \
  | xargs -P 2 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1; } &
SP=$!
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
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

#!/usr/bin/env bash
# Fourth (last) GPU call of the ninth session (2026-12-02): binaries of the commit in
# summary.txt (Release, sm_90) in c4.tar.xz: the AUTO kernel's no_allocate threshold at
# 128 MB (s9-c's gpuprims_auto128 variant, now the default). The reduction suites in
# full, min/max at the sizes the threshold moves, pytest.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c4.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s tests
run1() { timeout 200 "$@" >$L/$(basename $1)$2.log 2>&1; echo "$* exit $? ($(tail -1 $L/$(basename $1)$2.log))"; }
export -f run1; export B L
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
printf '%s\n' "run1 $B/test_reduce_gpu" "run1 $B/test_argreduce_gpu" "run1 $B/test_reduce_exact_gpu" \
  | xargs -P 3 -L 1 bash -c '"$@"' _ >$L/tests_summary.txt 2>&1
cat $L/tests_summary.txt >>$OUT/summary.txt
timeout 60 $B/gpuprims bench reduce --max-time 0.12 --quiet --dtype f32,f64 --op min,max --n 2^24,2^25 --json $L/auto_final.json >$L/auto_final.txt 2>&1
echo "bench min/max exit $?" >>$OUT/summary.txt
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s done
save

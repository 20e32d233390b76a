#!/usr/bin/env bash
# Final GPU call of the sixth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90) carried as gpubin.tar.xz (scripts/pack_gpubin.sh). On the fresh host
# first: the Python sort/argsort suites beside torch/CuPy, the offsets and small-sort
# benches beside CUB; then the whole CTest suite at -j 4 and pytest -rs.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s python
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites sort,argsort \
  --sizes 2048,4096,8192,16384,32768,65536,1048576 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
s offsets
timeout 90 $B/gpuprims bench sort --max-time 0.3 --quiet --no-seed --no-segments --sizes 2^11 \
  --offsets tiny,uniform,powerlaw,large,one --json $L/offsets.json >$L/offsets.txt 2>&1
echo "offsets exit $?" >>$OUT/summary.txt
s small
AS="--max-time 0.25 --quiet --no-seed --no-segments --sizes 2^11,2^12,2^13,2^14,2^15,2^16,2^17"
timeout 60 $B/gpuprims bench sort $AS --argsort --json $L/argsort.json >$L/argsort.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --pairs u32 --algo auto --json $L/pairs.json >$L/pairs.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --dtype u64 --algo auto --json $L/u64.json >$L/u64.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --algo auto --json $L/u32.json >$L/u32.txt 2>&1
timeout 60 $B/gpuprims bench sort --max-time 0.6 --quiet --no-seed --no-segments --sizes 2^20,2^24 --dtype u64 \
  --pairs u64 --algo auto --json $L/pairs_u64.json >$L/pairs_u64.txt 2>&1
echo "small benches done" >>$OUT/summary.txt
s ctest
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 60 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Third GPU call of the sixth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90) carried as gpubin.tar.xz. The big-block class (1024 x 8) for 2^11..2^13
# keys; argsort / AUTO pairs composites up to 2^12 (ab0: argsort composites off, pairs: --algo
# radix). Tests, memcheck and racecheck (quick), pytest; small sorts beside CUB; u64 keys
# by bitonic and radix at 2^11..2^17 (the 8-byte bitonic cluster kernel was slow at 2^13) with
# ncu of that kernel; offsets; the Python sort/argsort suites beside torch.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s python-bench
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites sort,argsort \
  --sizes 2048,4096,8192,16384,32768,65536,1048576 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
s ctest
timeout 240 ctest --test-dir $B -j 3 -R "sort_radix_gpu|radix_scratch|test_sort_gpu|topk_rows_gpu" --output-on-failure --timeout 230 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*|Passed|sec$" $L/ctest.log >>$OUT/summary.txt
s sanitizers
for t in memcheck racecheck; do
  GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $B/test_sort_radix_gpu >$L/$t.log 2>&1
  echo "$t test_sort_radix_gpu exit $? ($(tail -1 $L/$t.log))" >>$OUT/summary.txt
done
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 90 python3 -m pytest -q -rs -p no:cacheprovider -k "sort" tests) >$L/pytest.log 2>&1
echo "pytest -k sort exit $? ($(tail -1 $L/pytest.log))" >>$OUT/summary.txt
s bench-small
SZ="--sizes 2^11,2^12,2^13,2^14,2^15,2^16,2^17"
AS="--max-time 0.25 --quiet --no-seed --no-segments $SZ"
timeout 60 $B/gpuprims bench sort $AS --argsort --json $L/argsort.json >$L/argsort.txt 2>&1
timeout 60 $B/gpuprims_ab0 bench sort $AS --argsort --no-peers >$L/argsort_ab0.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --pairs u32 --algo auto --json $L/pairs.json >$L/pairs.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --pairs u32 --algo radix --no-peers >$L/pairs_radix.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --algo radix --json $L/keys_radix.json >$L/keys_radix.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --dtype u64 --algo bitonic --json $L/u64_bitonic.json >$L/u64_bitonic.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --dtype u64 --algo radix --no-peers >$L/u64_radix.txt 2>&1
python3 - $L >>$OUT/summary.txt <<'PY'
import re, sys
L = sys.argv[1]
def rows(path):
    out = {}
    for line in open(path):
        t = line.split()
        if not t or t[0] != "gpuprims":
            continue
        i = next(j for j, x in enumerate(t) if re.fullmatch(r"2\^\d+", x))
        r = next((x for x in t if re.fullmatch(r"\d+\.\d+x", x)), "")
        out[t[i]] = t[i + 4] + " " + t[i + 5] + " " + r
    return out
for f in ["argsort", "argsort_ab0", "pairs", "pairs_radix", "keys_radix", "u64_bitonic", "u64_radix"]:
    print("==", f, " | ".join(n + " " + v for n, v in rows(f"{L}/{f}.txt").items()))
PY
s ncu
timeout 80 ncu --clock-control none -k regex:"bs_cluster" -c 1 --section SpeedOfLight --section WarpStateStats \
  --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --section InstructionStats \
  $B/gpuprims bench sort --max-time 0.01 --min-samples 1 --warmup 0 --quiet --no-seed --no-segments --no-peers \
  --dtype u64 --algo bitonic --sizes 2^13 >$L/ncu_u64_2p13.txt 2>&1
grep -E "bs_|Duration|Achieved Occupancy|Registers Per|Executed Ipc|Stall|Bank|Warp Cycles|Executed Instructions " $L/ncu_u64_2p13.txt | head -20 >>$OUT/summary.txt
s offsets
timeout 120 $B/gpuprims bench sort --max-time 0.3 --quiet --no-seed --no-segments --sizes 2^11 \
  --offsets tiny,uniform,powerlaw,large --json $L/offsets.json >$L/offsets.txt 2>&1
grep -h "segments" $L/offsets.txt >>$OUT/summary.txt
grep -E "^(gpuprims|torch|cupy)" $L/python.txt | grep -E "sort|argsort" >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Fourth GPU call of the sixth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90) carried as gpubin.tar.xz. The 8-byte bitonic cluster kernel rolled (unr:
# unrolled as before); argsort / AUTO pairs composites from 2049 to 2^16. Sort tests,
# memcheck and racecheck of test_sort_gpu (quick), benches beside CUB.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s bench-small
SZ="--sizes 2^11,2^12,2^13,2^14,2^15,2^16,2^17"
AS="--max-time 0.25 --quiet --no-seed --no-segments $SZ"
timeout 60 $B/gpuprims bench sort $AS --dtype u64 --algo bitonic --json $L/u64_bitonic.json >$L/u64_bitonic.txt 2>&1
timeout 60 $B/gpuprims_unr bench sort $AS --dtype u64 --algo bitonic --no-peers >$L/u64_bitonic_unr.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --dtype f64 --algo auto --json $L/f64_auto.json >$L/f64_auto.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --argsort --json $L/argsort.json >$L/argsort.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --pairs u32 --algo auto --json $L/pairs.json >$L/pairs.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --dtype f32 --pairs u32 --algo auto --json $L/pairs_f32.json >$L/pairs_f32.txt 2>&1
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
for f in ["u64_bitonic", "u64_bitonic_unr", "f64_auto", "argsort", "pairs", "pairs_f32"]:
    print("==", f, " | ".join(n + " " + v for n, v in rows(f"{L}/{f}.txt").items()))
PY
s ctest
timeout 200 ctest --test-dir $B -j 3 -R "sort_radix_gpu|radix_scratch|test_sort_gpu|topk_rows_gpu" --output-on-failure --timeout 190 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*|Passed|sec$" $L/ctest.log >>$OUT/summary.txt
s sanitizers
for t in memcheck racecheck; do
  GP_TEST_QUICK=1 timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $B/test_sort_gpu >$L/$t.log 2>&1
  echo "$t test_sort_gpu exit $? ($(tail -1 $L/$t.log))" >>$OUT/summary.txt
done
s done
save

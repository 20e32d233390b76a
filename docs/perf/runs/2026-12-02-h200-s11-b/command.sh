#!/usr/bin/env bash
# Second GPU call of the eleventh session (2026-12-02): binaries of the commit given as $1
# (Release, sm_90) carried as c11b.tar.xz. The one-cluster radix sort at 4 keys a thread
# (8 for 4-byte keys alone to 2^17) and large segments by clusters: the sort suites,
# memcheck (quick) and racecheck (GP_TEST_QUICK=2); sorts beside CUB against cl0
# (-DGP_RX_CLUSTER=0: the paths before), offsets kinds, the Python sort/argsort suites.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c11b.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of $1"; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ctest
timeout 250 ctest --test-dir $B -j 3 -R "sort|radix|topk" --output-on-failure --timeout 240 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*|Passed|sec$" $L/ctest.log >>$OUT/summary.txt
grep -m5 -E "FAIL" $L/ctest.log >>$OUT/summary.txt
s sanitizers
GP_TEST_QUICK=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$L/memcheck.log 2>&1
echo "memcheck quick exit $? ($(tail -1 $L/memcheck.log))" >>$OUT/summary.txt
GP_TEST_QUICK=2 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $B/test_sort_radix_gpu >$L/racecheck.log 2>&1
echo "racecheck quick=2 exit $? ($(tail -1 $L/racecheck.log))" >>$OUT/summary.txt
s bench
SZ="--sizes 2^13,10000,2^14,2^15,2^16,2^17"
AS="--max-time 0.15 --quiet --no-seed --no-segments $SZ"
for r in 1 2; do
  for v in "" _cl0; do
    P=$([ -z "$v" ] && echo "--json $L/J" || echo "--no-peers")
    timeout 60 $B/gpuprims$v bench sort $AS --argsort ${P/J/argsort$r.json} >$L/argsort${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --pairs u32 --algo auto ${P/J/pairs$r.json} >$L/pairs${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --dtype f32 --pairs u32 --algo auto ${P/J/pf32$r.json} >$L/pf32${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --algo auto ${P/J/keys$r.json} >$L/keys${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --dtype u64 --algo radix ${P/J/k64$r.json} >$L/k64${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --dtype u64 --pairs u64 --algo auto ${P/J/p64$r.json} >$L/p64${v}_r$r.txt 2>&1
    timeout 100 $B/gpuprims$v bench sort --max-time 0.2 --quiet --no-seed --no-segments --sizes 2^11 \
      --offsets tiny,uniform,powerlaw,large,one ${P/J/offsets$r.json} >$L/offsets${v}_r$r.txt 2>&1
  done
done
timeout 60 $B/gpuprims bench sort $AS --dtype u64 --algo bitonic --no-peers >$L/k64_bitonic.txt 2>&1
python3 - $L >>$OUT/summary.txt <<'PY'
import re, sys, glob, os
L = sys.argv[1]
def rows(path):
    out = {}
    for line in open(path):
        t = line.split()
        if not t or t[0] != "gpuprims":
            continue
        try:
            i = next(j for j, x in enumerate(t) if re.fullmatch(r"(2\^\d+|\d+)", x) and j > 0)
        except StopIteration:
            continue
        r = next((x for x in t if re.fullmatch(r"\d+\.\d+x", x)), "")
        out[t[i]] = t[i + 4] + " " + t[i + 5] + " " + r
    return out
for f in sorted(glob.glob(L + "/*.txt")):
    if "offsets" in f or "ctest" in f: continue
    print("==", os.path.basename(f), " | ".join(n + " " + v for n, v in rows(f).items()))
PY
grep -h "segments" $L/offsets*.txt >>$OUT/summary.txt
s python-bench
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites sort,argsort \
  --sizes 8192,16384,32768,65536,131072 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
grep -E "^(gpuprims|torch|cupy)" $L/python.txt | grep -E "sort|argsort" >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# First GPU call of the eleventh session (2026-12-02): binaries of the commit given as $1
# (Release, sm_90) carried as c11a.tar.xz. The one-cluster radix sort (radix_cluster.cuh):
# test_sort_radix_gpu in full, memcheck and racecheck (quick); small sorts beside CUB with
# variants cl0 (-DGP_RX_CLUSTER=0: the paths before), ovt (-DGP_RX_CL_OVER_TILE=1) and i4
# (-DGP_RX_CL_ITEMS4=4); the Python sort/argsort suites beside torch.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c11a.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of $1"; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s test
timeout 200 $B/test_sort_radix_gpu >$L/test_radix.log 2>&1
echo "test_sort_radix_gpu exit $? ($(tail -1 $L/test_radix.log))" >>$OUT/summary.txt
grep -m5 FAIL $L/test_radix.log >>$OUT/summary.txt
s sanitizers
for t in memcheck racecheck; do
  GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $B/test_sort_radix_gpu >$L/$t.log 2>&1
  echo "$t test_sort_radix_gpu exit $? ($(tail -1 $L/$t.log))" >>$OUT/summary.txt
done
s bench
SZ="--sizes 2^13,10000,2^14,2^15,2^16,2^17"
AS="--max-time 0.2 --quiet --no-seed --no-segments $SZ"
for r in 1 2; do
  for v in "" _cl0 _ovt _i4; do
    P=$([ -z "$v" ] && echo "" || echo "--no-peers")
    timeout 60 $B/gpuprims$v bench sort $AS --argsort $P >$L/argsort${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --pairs u32 --algo auto $P >$L/pairs${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --algo radix $P >$L/keys${v}_r$r.txt 2>&1
    timeout 60 $B/gpuprims$v bench sort $AS --dtype u64 --pairs u64 --algo radix $P >$L/p64${v}_r$r.txt 2>&1
  done
done
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
for f in sorted(glob.glob(L + "/*_r[12].txt")):
    print("==", os.path.basename(f), " | ".join(n + " " + v for n, v in rows(f).items()))
PY
s python-bench
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites sort,argsort \
  --sizes 8192,16384,32768,65536,131072 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
grep -E "^(gpuprims|torch|cupy)" $L/python.txt | grep -E "sort|argsort" >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Fourth GPU call of the thirteenth session: binaries of the commit given as $1 in
# c13d.tar.xz (the prefilter's sample by radix select, from n = 2^20). test_topk_gpu,
# memcheck/racecheck of the CLI's top-k, ncu per kernel (as s13-c), then top-k vs torch
# from Python, twice.
set -u
T0=$SECONDS
O=$OUT/out.txt
s() { echo "[$((SECONDS - T0))s] $*" >>$O; }
tar xf c13d.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >>$O
timeout 200 $B/test_topk_gpu >/tmp/tk.log 2>&1; echo "test_topk_gpu exit $? ($(tail -1 /tmp/tk.log))" >>$O
grep -E "FAIL" /tmp/tk.log | head -20 >>$O
s ncu
python3 - <<'PY'
import numpy as np
r = np.random.default_rng(3)
for e in (20, 24, 28):
    np.save("/tmp/u%d.npy" % e, r.random(2**e, dtype=np.float32))
    np.save("/tmp/n%d.npy" % e, r.standard_normal(2**e, dtype=np.float32))
PY
for a in "/tmp/u20.npy -k 16" "/tmp/n24.npy -k 1024 --smallest"; do
  for tool in memcheck racecheck; do
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims topk $a --backend cuda >/tmp/san.out 2>/tmp/san.err
    echo "$tool topk $a: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.err | tail -1))" >>$O
  done
done
for f in n20 u20 n24 u24 n28 u28; do
  for k in 16 1024; do
    timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B/gpuprims topk /tmp/$f.npy -k $k --backend cuda >/tmp/ncu.csv 2>/tmp/ncu.err
    python3 - "$f k=$k" >>$O <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open("/tmp/ncu.csv")) if len(r) > 10]
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit")
tot = collections.OrderedDict(); cnt = collections.Counter()
scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
for r in rows[1:]:
    name = r[ki].split("(")[0].split("<")[0].replace("void ", "")
    us = float(r[vi].replace(",", "")) * scale[r[ui]]
    tot[name] = tot.get(name, 0) + us; cnt[name] += 1
sel = {n: t for n, t in tot.items() if "tk_" in n or "rx_" in n or "topk" in n}
print("%-10s total %7.1f us | " % (sys.argv[1], sum(sel.values())) + ", ".join("%s x%d %.1f" % (n, cnt[n], t) for n, t in sel.items()))
PY
  done
done
s "python bench: topk"
for i in 1 2; do
  (cd python && GPUPRIMS_LIBRARY=$(realpath ../$B/libgpuprims.so) PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites topk --peers torch --json $OUT/topk_$i.json) >/tmp/pb.log 2>&1
  echo "== round $i: exit $?" >>$O; grep -v "^#" /tmp/pb.log | grep gpuprims >>$O
done
s done

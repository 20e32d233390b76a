#!/usr/bin/env bash
# Third GPU call of the thirteenth session: binaries of the commit given as $1 in
# c13c.tar.xz (gpuprims, and gpuprims_nopre: topk.cu without the prefilter). Each
# kernel's time in `gpuprims topk` (ncu, gpu__time_duration, clocks as they run) for
# normal and uniform [0,1) f32 at 2^20, 2^22, 2^24 and 2^28, k = 16 and 1024, with and
# without the prefilter: where the small sizes' time goes.
set -u
O=$OUT/out.txt
tar xf c13c.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >>$O
python3 - <<'PY'
import numpy as np
r = np.random.default_rng(3)
for e in (20, 22, 24, 28):
    np.save("/tmp/u%d.npy" % e, r.random(2**e, dtype=np.float32))
    np.save("/tmp/n%d.npy" % e, r.standard_normal(2**e, dtype=np.float32))
PY
for f in n20 u20 n22 u22 n24 u24 n28 u28; do
  for k in 16 1024; do
    for v in pre nopre; do
      g=$B/gpuprims; [ $v = pre ] || g=$B/gpuprims_$v
      timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv $g topk /tmp/$f.npy -k $k --backend cuda >/tmp/ncu.csv 2>/tmp/ncu.err
      python3 - "$f k=$k $v" >>$O <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(open("/tmp/ncu.csv")) if len(r) > 10]
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit")
tot = collections.OrderedDict(); cnt = collections.Counter()
for r in rows[1:]:
    name = r[ki].split("(")[0].split("<")[0].replace("void ", "")
    v = float(r[vi].replace(",", "")); u = r[ui]
    us = v / 1000 if u == "nsecond" else v if u == "usecond" else v * 1000
    tot[name] = tot.get(name, 0) + us; cnt[name] += 1
sel = {n: t for n, t in tot.items() if "tk_" in n or "rx_" in n or "topk" in n or "radix" in n}
print("%-22s total %8.1f us | " % (sys.argv[1], sum(sel.values())) + ", ".join("%s x%d %.1f" % (n, cnt[n], t) for n, t in sel.items()))
PY
    done
  done
done

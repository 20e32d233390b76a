#!/usr/bin/env bash
# Fourth GPU call of the twelfth session: binaries of the commit given as $1 (Release,
# sm_90) in c12d.tar.xz: gpuprims with the new file writing (fallocate + a shared mapping
# copied by several threads, early writeback), gpuprims_nommap (write() + early
# writeback) and gpuprims_old (write() alone, as before), variants of src/io/file_util.c
# (scripts/variant_build.sh). The io tests on this host's file system, then `gpuprims
# sort -v` of 2^27 and 2^28 u32 .npy files by each binary, alternated, and the CLI
# against NumPy (load + np.sort + np.save, as bench/cli_files.py's sort row). Everything in $OUT/out.txt.
set -u
O=$OUT/out.txt
tar xf c12d.tar.xz
B=build
{ echo "binaries of ${1:-?}"; cat /proc/loadavg; df -hT /tmp | tail -1; } >>$O
$B/test_io 2>&1 | tail -1 >>$O
$B/test_io_map 2>&1 | tail -1 >>$O
bash tests/cli_sort.sh $B/gpuprims . >>$O 2>&1 && echo "cli_sort.sh passed" >>$O
python3 -c "
import numpy as np
r = np.random.default_rng(5)
np.save('/tmp/s27.npy', r.integers(0, 2**32, 2**27, dtype=np.uint32))
np.save('/tmp/s28.npy', r.integers(0, 2**32, 2**28, dtype=np.uint32))"
for f in s27 s28; do for rep in 1 2 3 4; do for v in "" _nommap _old; do
  echo -n "$f gpuprims$v: " >>$O
  $B/gpuprims$v sort /tmp/$f.npy /tmp/${f}o$v.npy -v 2>&1 | tail -1 >>$O
done; done; done
python3 - >>$O <<'PY'
import numpy as np
for f in ("s27", "s28"):
    want = np.sort(np.load("/tmp/%s.npy" % f))
    for v in ("", "_nommap", "_old"):
        print(f, v or "default", "output", "correct" if np.array_equal(np.load("/tmp/%so%s.npy" % (f, v)), want) else "WRONG")
PY
rm -f /tmp/s2*o*.npy
python3 - >>$O <<'PY'
import subprocess, time, statistics, numpy as np
f, o1, o2 = "/tmp/s27.npy", "/tmp/s27_gp.npy", "/tmp/s27_np.npy"
ours, peer = [], []
for _ in range(4):
    t0 = time.perf_counter(); subprocess.run(["build/gpuprims", "sort", f, o1], check=True); ours.append(time.perf_counter() - t0)
    t0 = time.perf_counter(); np.save(o2, np.sort(np.load(f))); peer.append(time.perf_counter() - t0)
assert np.array_equal(np.load(o1), np.load(o2))
print("sort 2^27 u32 .npy: gpuprims %.4f s (runs %s), numpy load+sort+save %.4f s (runs %s): %.2fx" % (
    statistics.median(ours), " ".join("%.3f" % t for t in ours), statistics.median(peer),
    " ".join("%.3f" % t for t in peer), statistics.median(peer) / statistics.median(ours)))
PY

#!/usr/bin/env bash
# First GPU call of the thirteenth session (2026-12-02): binaries of the commit given as
# $1 (Release, sm_90) in c13a.tar.xz, with variants of radix.cu (gpuprims_NAME,
# scripts/variant_build.sh). Tests: test_topk_gpu (the select's new prefilter),
# test_sort_radix_gpu (quick; the segments' composite rule), their sanitizers through
# the CLI; benches: top-k and rows top-k vs torch (python -m gpuprims.bench), small
# sorts/argsorts vs torch, offsets segments before (gpuprims_oldseg) and after, pairs'
# items a thread (u32/u32 16/18/20/22, u64/u64 12/14/16), the staging sweep.
set -u
T0=$SECONDS
O=$OUT/out.txt
s() { echo "[$((SECONDS - T0))s] $*" >>$O; }
tar xf c13a.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; cat /proc/loadavg; } >>$O
s tests
timeout 200 $B/test_topk_gpu >/tmp/tk.log 2>&1; echo "test_topk_gpu exit $? ($(tail -1 /tmp/tk.log))" >>$O
grep -E "FAIL|fail" /tmp/tk.log | head -20 >>$O
GP_TEST_QUICK=1 timeout 150 $B/test_sort_radix_gpu >/tmp/rx.log 2>&1; echo "test_sort_radix_gpu quick exit $? ($(tail -1 /tmp/rx.log))" >>$O
s sanitizers
python3 - <<'PY'
import numpy as np
r = np.random.default_rng(3)
np.save("/tmp/u22.npy", r.random(2**22 + 5, dtype=np.float32))
np.save("/tmp/n20.npy", r.standard_normal(2**20 + 3).astype(np.float32))
PY
for tool in memcheck racecheck synccheck; do
  for a in "/tmp/u22.npy -k 16" "/tmp/u22.npy -k 1024 --smallest" "/tmp/n20.npy -k 100"; do
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims topk $a --backend cuda >/tmp/san.out 2>/tmp/san.err
    echo "$tool topk $a: exit $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.err | tail -1))" >>$O
  done
done
python3 - >>$O <<'PY'
import numpy as np, subprocess
for f, k, sm in (("/tmp/u22.npy", 1024, False), ("/tmp/n20.npy", 100, False)):
    a = np.load(f)
    out = subprocess.run(["build/gpuprims", "topk", f, "-k", str(k), "--backend", "cuda"], capture_output=True, text=True).stdout.split("\n")
    idx = np.array([int(l.split()[0]) for l in out if l.strip()])
    ref = np.argsort(-a, kind="stable")[:k]
    print("topk cli", f, k, "matches numpy" if np.array_equal(idx, ref) else "DIFFERS")
PY
s "python bench: topk, topk_rows"
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 200 python3 -m gpuprims.bench --suites topk,topk_rows --peers torch --json $OUT/topk.json) >/tmp/pb.log 2>&1
echo "bench topk exit $?" >>$O; grep -v "^#" /tmp/pb.log | tail -40 >>$O
s "python bench: small sort, argsort"
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites sort,argsort --sizes 2048,8192,32768,65536 --json $OUT/small_sort.json) >/tmp/pb2.log 2>&1
echo "bench sort exit $?" >>$O; grep -v "^#" /tmp/pb2.log | tail -24 >>$O
s "offsets: old rule, new rule"
for v in oldseg new oldseg new; do
  g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
  echo "== $v" >>$O
  timeout 60 $g bench sort --max-time 0.3 --quiet --no-seed --sizes 2^11 --segments 1024 --offsets mix,powerlaw,large --json /tmp/off_$v.json 2>&1 | grep -iE "offsets|segmented|mix|powerlaw|large" >>$O
done
s "pairs: items a thread"
for v in new p4_16 p4_20 p4_22 new; do
  g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
  echo "== u32/u32 $v" >>$O
  timeout 60 $g bench sort --algo auto --pairs u32 --max-time 0.4 --quiet --no-seed --no-segments --sizes 2^24,2^28 2>&1 | grep -iE "pairs|Sort" >>$O
done
for v in new p8v_14 p8v_16 new; do
  g=$B/gpuprims; [ $v = new ] || g=$B/gpuprims_$v
  echo "== u64/u64 $v" >>$O
  timeout 60 $g bench sort --algo auto --dtype u64 --pairs u64 --max-time 0.4 --quiet --no-seed --no-segments --sizes 2^24,2^28 2>&1 | grep -iE "pairs|Sort" >>$O
done
s "staging sweep"
for tc in 8:8 4:8 12:8 16:8 8:4 8:16 16:16 12:16 8:8; do
  t=${tc%:*}; c=${tc#*:}
  echo "== threads $t chunk $c MiB" >>$O
  GPUPRIMS_STAGE_THREADS=$t GPUPRIMS_STAGE_CHUNK_MB=$c timeout 40 $B/gpuprims bench host --big 268435456 --reps 10 2>&1 | grep -E "pageable|pinned" >>$O
done
s done

#!/usr/bin/env bash
# Final GPU call of the eleventh session (2026-12-02): binaries of the commit given as $1
# (Release, sm_90) in c11f.tar.xz. The whole CTest suite at -j 4 with pytest,
# test_dist_gpu p1 and compute-sanitizer beside it (racecheck and synccheck of the
# one-cluster radix sort through the CLI: the test binary's racecheck does not finish),
# then the sort benches beside CUB and the Python sort/argsort suites.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c11f.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
python3 - <<'PY'
import numpy as np
r = np.random.default_rng(11)
np.save("/tmp/k32.npy", r.integers(0, 2**32, 20000, dtype=np.uint32))
np.save("/tmp/k32w.npy", r.integers(0, 2**32, 100000, dtype=np.uint32))
np.save("/tmp/k64.npy", r.integers(0, 2**64, 20000, dtype=np.uint64))
np.save("/tmp/f32.npy", r.standard_normal(40000).astype(np.float32))
PY
s "ctest + pytest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
cli() { f=$2; shift 2; timeout 150 compute-sanitizer --tool $T --error-exitcode 9 $B/gpuprims sort /tmp/$f.npy /tmp/o_${T}_$f$N.npy "$@" >$L/cli_${T}_$f$N.log 2>&1
  echo "$T gpuprims sort $f $*: exit $? ($(tail -1 $L/cli_${T}_$f$N.log))"; }
export -f san cli; export B L
{ printf '%s\n' "memcheck test_sort_radix_gpu 1 300" "memcheck test_sort_gpu 1 300" \
  "memcheck test_reduce_exact_gpu 1 300" | xargs -P 3 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1
  for T in racecheck synccheck; do
    export T
    printf '%s\n' "a k32 --algo radix" "b k32 --argsort" "c k32w --algo radix" "d k64 --algo radix" "e k64 --argsort" "f f32 --argsort" \
      | xargs -P 3 -L 1 bash -c 'N=$0; cli "$N" "$@"' >>$L/san_summary.txt 2>&1
  done; } &
SP=$!
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$L/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $L/dist_p1.log))" >>$OUT/summary.txt
timeout 380 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$OUT/summary.txt
s "waiting for sanitizers"
wait $SP
cat $L/san_summary.txt >>$OUT/summary.txt
python3 - >>$OUT/summary.txt <<'PY'
import numpy as np, glob
for f in sorted(glob.glob("/tmp/o_*.npy")):
    name = f.split("_", 2)[2][:-4]
    src = np.load("/tmp/" + name[:-1] + ".npy")
    out = np.load(f)
    want = np.argsort(src, kind="stable") if name[-1] in "bef" else np.sort(src)
    print("cli output", f, "correct" if np.array_equal(out.astype(want.dtype), want) else "WRONG")
PY
s bench
SZ="--sizes 2^13,10000,2^14,2^15,2^16,2^17"
AS="--max-time 0.15 --quiet --no-seed --no-segments $SZ"
timeout 60 $B/gpuprims bench sort $AS --argsort --json $L/argsort.json >$L/argsort.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --pairs u32 --algo auto --json $L/pairs.json >$L/pairs.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --dtype f32 --pairs u32 --algo auto --json $L/pf32.json >$L/pf32.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --algo auto --json $L/keys.json >$L/keys.txt 2>&1
timeout 60 $B/gpuprims bench sort $AS --dtype u64 --pairs u64 --algo auto --json $L/p64.json >$L/p64.txt 2>&1
timeout 100 $B/gpuprims bench sort --max-time 0.2 --quiet --no-seed --no-segments --sizes 2^11 \
  --offsets tiny,uniform,powerlaw,large,one --json $L/offsets.json >$L/offsets.txt 2>&1
grep -h -E "^gpuprims" $L/argsort.txt $L/pairs.txt $L/pf32.txt $L/keys.txt $L/p64.txt $L/offsets.txt | cut -c1-150 >>$OUT/summary.txt
s python-bench
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m gpuprims.bench --suites sort,argsort \
  --sizes 2048,8192,16384,32768,65536,131072 --json $L/python.json) >$L/python.txt 2>&1
echo "python bench exit $?" >>$OUT/summary.txt
grep -E "^(gpuprims|torch|cupy)" $L/python.txt | grep -E "sort|argsort" >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Final GPU call of the twelfth session (2026-12-02): binaries of the commit given as $1
# (Release, sm_90) in c12f.tar.xz. The whole CTest suite at -j 4 with pytest and
# test_dist_gpu p1 beside it, memcheck (quick) of the sort suites; then the CLI on files
# (bench/cli_files.py: reduce, sort, integrate's first runs) and the steps of a 2^27 sort
# (`gpuprims sort -v`), with the cost of fsync on this host's /tmp measured apart.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
O=$OUT/summary.txt
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$O; save 2>/dev/null; }
tar xf c12f.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; nproc; cat /proc/loadavg; df -hT /tmp | tail -1; } >>$O
s "ctest + pytest + sanitizers"
san() { GP_TEST_QUICK=$3 timeout $4 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$L/san_$1_$2.log 2>&1
  echo "$1 $2 (GP_TEST_QUICK=$3): exit $? ($(tail -1 $L/san_$1_$2.log))"; }
export -f san; export B L
printf '%s\n' "memcheck test_sort_gpu 1 300" "memcheck test_sort_radix_gpu 1 300" \
  | xargs -P 2 -L 1 bash -c 'san "$@"' _ >$L/san_summary.txt 2>&1 &
SP=$!
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$L/pytest.log 2>&1 &
PP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$L/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $L/dist_p1.log))" >>$O
timeout 380 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 320 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$O
wait $PP
echo "pytest exit $? ($(tail -1 $L/pytest.log)); skips: $(grep -c '^SKIPPED' $L/pytest.log)" >>$O
s "waiting for sanitizers"
wait $SP
cat $L/san_summary.txt >>$O
s "cli files"
timeout 240 python3 bench/cli_files.py --gpuprims $B/gpuprims --dir /tmp/clif --reps 3 --json $OUT/cli_files.json >$OUT/cli_files.txt 2>&1
echo "cli_files exit $?" >>$O
s "sort -v and fsync"
python3 -c "
import numpy as np; np.save('/tmp/s27.npy', np.random.default_rng(5).integers(0, 2**32, 2**27, dtype=np.uint32))"
for i in 1 2 3; do $B/gpuprims sort /tmp/s27.npy /tmp/s27o.npy -v 2>>$O; done
python3 - >>$O <<'PY'
import os, time, numpy as np
a = np.load("/tmp/s27.npy")
if not np.array_equal(np.load("/tmp/s27o.npy"), np.sort(a)):
    print("gpuprims sort output WRONG")
for rep in range(3):
    for sync in (False, True):
        t0 = time.perf_counter()
        with open("/tmp/w.bin", "wb") as f:
            f.write(a.tobytes())
            f.flush()
            t1 = time.perf_counter()
            if sync:
                os.fsync(f.fileno())
        t2 = time.perf_counter()
        print("write 512 MiB to /tmp: write %.3f s, fsync %.3f s (sync=%s)" % (t1 - t0, t2 - t1, sync))
        os.remove("/tmp/w.bin")
PY
s done

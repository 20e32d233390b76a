#!/usr/bin/env bash
# Final GPU call of the sixteenth session (2026-12-03): binaries of commit $1 (Release,
# sm_90) in c16final.tar.xz, with gpuprims_head (reduce_exact.cu of ce70a4c, CPU code of
# ce70a4c). The whole CTest suite at -j 4 with pytest and test_dist_gpu p1 beside it;
# compute-sanitizer memcheck / synccheck / racecheck (quick) of the exact SUM and
# memcheck of the row sums; then the exact SUM on the H200 host's CPU (16 cores) for
# each data law, new and head alternated.
set -u
T0=$SECONDS
R=/tmp/r; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c16final.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 150 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1 &
PP=$!
san() { GP_TEST_QUICK=1 timeout $3 compute-sanitizer --tool $1 --error-exitcode 9 $B/$2 >$R/san_$1_$2.log 2>&1
  echo "$1 $2 (quick) exit $? ($(tail -1 $R/san_$1_$2.log))" >>$R/san.sum; }
(san memcheck test_reduce_exact_gpu 100; san synccheck test_reduce_exact_gpu 100; san memcheck test_reduce_segments_gpu 100
 san racecheck test_reduce_exact_gpu 240) &
SP=$!
GPUPRIMS_DIST_TIMEOUT=60 timeout 120 $B/test_dist_gpu p1 >$R/dist_p1.log 2>&1
echo "test_dist_gpu p1 exit $? ($(tail -1 $R/dist_p1.log))" >>$O
timeout 330 ctest --test-dir $B -j 4 -E cli_install --output-on-failure --timeout 300 >$R/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
wait $PP; echo "pytest exit $? ($(tail -1 $R/pytest.log)); skips: $(grep -c '^SKIPPED' $R/pytest.log)" >>$O
wait $SP; cat $R/san.sum >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
run() { # name binary args...
  local f=$R/$1; shift
  [ $((SECONDS - T0)) -lt 380 ] && timeout 60 "$@" --max-time 0.25 --quiet --json $f.json >$f.txt 2>&1
}
for v in gpuprims gpuprims_head; do for t in f32 f64; do
  run cpu_${t}_$v $B/$v bench reduce --backend cpu --dtype $t --n 2^24 --data uniform
  for d in lognormal wide; do run cpu_${t}_${d}_$v $B/$v bench reduce --backend cpu --dtype $t --n 2^24 --data $d; done
done; done
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
for f in $R/cpu_*.txt; do echo "== $(basename $f)"; awk '/^gpuprims/{r=""; for(i=1;i<=NF;i++) if ($i ~ /^[0-9.]+x$/) r=$i; u=$10 $11; if ($5 ~ /^\[/) u=$11 $12; printf "%s %s %s | ", ($5 ~ /^\[/ ? $7 : $6), u, r}' $f; echo; done

#!/usr/bin/env bash
# s31-a (2026-12-05, thirty-first session): binaries of $1 (19c6493: sessions 29-30's
# CPU, API and Python changes; no .cu change since 571cd9e). The first GPU run since
# s28: the whole CTest suite at -j 4 but pytest (-E cli_install: it needs the source
# install), then pytest alone with torch/CuPy/JAX arrays (-rs: every skip named), then
# the sanitizer runs s28 left: memcheck, racecheck and synccheck of test_topk_rows_gpu
# (quick) and racecheck of the radix test (quick: the narrow argsort's cluster path).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s31.tar.xz
# the CTest files name /work/main: point it at this tree
[ "$(realpath .)" = /work/main ] || { mkdir -p /work && ln -sfn "$(realpath .)" /work/main; }
B=build; PY=$(realpath python); LIBP=$(realpath build)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; uptime;
  python3 -c "import torch, cupy, jax; print('torch', torch.__version__, 'cupy', cupy.__version__, 'jax', jax.__version__, jax.devices())" 2>&1 | tail -1; } >$O
timeout 280 ctest --test-dir $B -j 4 -E "cli_install|python_pytest" --output-on-failure --timeout 240 >$R/ctest.log 2>&1
echo "ctest exit $? [$((SECONDS - T0))s]" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $R/ctest.log >>$O
pack
(cd python && GPUPRIMS_LIBRARY=$LIBP PYTHONPATH=$PY timeout 130 python3 -m pytest -q -rs -p no:cacheprovider --doctest-modules gpuprims tests) >$R/pytest.log 2>&1
echo "pytest exit $? [$((SECONDS - T0))s] $(tail -n 1 $R/pytest.log)" >>$O
pack
for tool in memcheck racecheck synccheck; do
  (cd $B && GP_TEST_QUICK=1 timeout 45 compute-sanitizer --tool $tool --error-exitcode 9 ./test_topk_rows_gpu) >$R/${tool}_topk_rows.log 2>&1
  echo "$tool test_topk_rows_gpu (quick) exit $? [$((SECONDS - T0))s] $(grep -h SUMMARY $R/${tool}_topk_rows.log | tail -1) $(tail -n 1 $R/${tool}_topk_rows.log)" >>$O
  pack
done
(cd $B && GP_TEST_QUICK=1 timeout 40 compute-sanitizer --tool racecheck --error-exitcode 9 ./test_sort_radix_gpu) >$R/racecheck_radix.log 2>&1
echo "racecheck test_sort_radix_gpu (quick) exit $? [$((SECONDS - T0))s] $(grep -h SUMMARY $R/racecheck_radix.log | tail -1) $(tail -n 1 $R/racecheck_radix.log)" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack

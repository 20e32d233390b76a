#!/usr/bin/env bash
# First GPU call of the twelfth session (2026-12-02): binaries of the commit given as $1
# (Release, sm_90) in c12a.tar.xz. The integrate tests (the new interpreted kernel
# against the compiled one, bit for bit), the CLI tests and Python's integrate tests;
# compute-sanitizer on the interpreted kernel through the CLI; then the interpreter's
# cost per point beside the compiled kernel (bench trap, GPUPRIMS_JIT=never/always) and
# the first run of a new expression through the CLI and Python.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c12a.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s tests
export GPUPRIMS_CACHE_DIR=/tmp/gpk_tests
timeout 240 ctest --test-dir $B -j 4 -R "integrate|cli_" -E cli_install --output-on-failure --timeout 200 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout|interpreted ==" $L/ctest.log >>$OUT/summary.txt
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 120 python3 -m pytest -q -rs -p no:cacheprovider tests -k "integrate or model") >$L/pytest.log 2>&1
echo "pytest -k integrate exit $? ($(tail -1 $L/pytest.log))" >>$OUT/summary.txt
s sanitizers
E2='sin(x)*exp(-x^2) + floor(3*x)/4 - max(min(x, pi), -e)'
for tool in memcheck racecheck synccheck; do for p in f32 f64; do
  GPUPRIMS_JIT=never timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims integrate "$E2" 0 3 -n 1000003 --precision $p >$L/san_${tool}_$p.log 2>&1
  echo "$tool interpreted $p: exit $? ($(tail -1 $L/san_${tool}_$p.log))" >>$OUT/summary.txt
done; done
s "bench trap: interpreted vs compiled"
i=0
for E in 'x^2' '1/(1+x^2)' 'sin(x)^2' "$E2"; do
  i=$((i + 1))
  for mode in always never; do
    GPUPRIMS_JIT=$mode timeout 120 $B/gpuprims bench trap --expr "$E" --sizes 2^20,2^24,2^28,2^30 --no-peers --max-time 0.3 --quiet --json $OUT/trap_${mode}_$i.json >$L/trap_${mode}_$i.txt 2>&1
    echo "== $mode '$E' (exit $?)" >>$OUT/trap.txt; cat $L/trap_${mode}_$i.txt >>$OUT/trap.txt
  done
done
s "first runs"
for p in f32 f64; do for E in 'sin(x)^2' 'exp(-x^2) * cos(3*x) + sqrt(x + 1)'; do
  d=$(mktemp -d)
  for extra in "" "-n 2^30" "--compile" "--compile"; do
    a=$(date +%s.%N)
    out=$(GPUPRIMS_CACHE_DIR=$d $B/gpuprims integrate "$E" 0 pi -v --precision $p $extra 2>&1)
    b=$(date +%s.%N)
    echo "$p '$E' [$extra]: wall $(echo "$b - $a" | bc) s; $(echo "$out" | grep -E 'compile_ms|call_ms|result' | tr '\n' ' ')" >>$OUT/first.txt
  done
  rm -rf $d
done; done
for mode in auto always; do
  GPUPRIMS_JIT=$mode GPUPRIMS_CACHE_DIR=off GPUPRIMS_LIBRARY=$lib PYTHONPATH=python timeout 60 python3 -c "
import time, gpuprims
t = time.perf_counter(); v = gpuprims.integrate('sin(x)^2 + x/7', 0, 'pi', n=2**24, precision='f32'); t1 = time.perf_counter()
w = gpuprims.integrate('sin(x)^2 + x/7', 0, 'pi', n=2**24, precision='f32'); t2 = time.perf_counter()
print('python $mode: first call %.2f ms, second %.3f ms, value %.17g' % ((t1 - t)*1e3, (t2 - t1)*1e3, v))
" >>$OUT/first.txt 2>&1
done
s done
cp $L/ctest.log $L/pytest.log $OUT/ 2>/dev/null

#!/usr/bin/env bash
# Second GPU call of the twelfth session: binaries of the commit given as $1 (Release,
# sm_90) in c12b.tar.xz. The integrate tests (the interpreter, now 8 points a pass,
# against the compiled kernel bit for bit), compute-sanitizer on the interpreted kernel,
# then bench trap with the interpreter (GPUPRIMS_JIT=never, no disk cache) and the
# compiled kernel, the CLI's first runs, and the sort crossover of 8-byte keys at 2^16 ..
# 2^18 (AUTO / bitonic / radix beside CUB). Everything lands in $OUT/out.txt.
set -u
T0=$SECONDS
O=$OUT/out.txt
s() { echo "[$((SECONDS - T0))s] $*" >>$O; }
tar xf c12b.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; cat /proc/loadavg; } >>$O
s tests
export GPUPRIMS_CACHE_DIR=/tmp/gpk_tests
timeout 240 ctest --test-dir $B -j 4 -R "integrate" --output-on-failure --timeout 200 >/tmp/ctest.log 2>&1
echo "ctest exit $?" >>$O
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" /tmp/ctest.log >>$O
GPUPRIMS_CACHE_DIR=off $B/test_integrate_interp_gpu 2>&1 | tail -3 >>$O
s sanitizers
E2='sin(x)*exp(-x^2) + floor(3*x)/4 - max(min(x, pi), -e)'
for tool in memcheck racecheck synccheck; do for p in f32 f64; do
  GPUPRIMS_JIT=never timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $B/gpuprims integrate "$E2" 0 3 -n 1000003 --precision $p >/tmp/san.log 2>&1
  echo "$tool interpreted $p: exit $? ($(tail -1 /tmp/san.log))" >>$O
done; done
s "bench trap"
i=0
for E in 'x^2' '1/(1+x^2)' 'sin(x)^2' "$E2"; do
  i=$((i + 1))
  for mode in always never; do
    echo "== $mode '$E'" >>$O
    GPUPRIMS_CACHE_DIR=off GPUPRIMS_JIT=$mode timeout 120 $B/gpuprims bench trap --expr "$E" --sizes 2^16,2^20,2^24,2^28,2^30 --no-peers --max-time 0.3 --quiet >>$O 2>&1
  done
done
s "first runs"
for p in f32 f64; do for E in 'sin(x)^2' 'exp(-x^2) * cos(3*x) + sqrt(x + 1)'; do
  d=$(mktemp -d)
  for extra in "" "-n 2^30" "--compile" "--compile"; do
    a=$(date +%s%N)
    out=$(GPUPRIMS_CACHE_DIR=$d $B/gpuprims integrate "$E" 0 pi -v --precision $p $extra 2>/dev/null)
    b=$(date +%s%N)
    echo "$p '$E' [$extra]: process $(( (b - a) / 1000000 )) ms; $(echo "$out" | grep -E 'compile_ms|call_ms|result' | tr '\n' ' ')" >>$O
  done
  rm -rf $d
done; done
s "sort: 8-byte keys at 2^16 .. 2^18"
for t in u64 f64; do for algo in auto bitonic radix; do
  timeout 60 $B/gpuprims bench sort --dtype $t --algo $algo --sizes 2^16,2^17,2^18 --no-seed --no-segments --max-time 0.3 --quiet >>$O 2>&1
done; done
s done

#!/usr/bin/env bash
# Third GPU call of the tenth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90; the whole-kernel JIT again) in c3.tar.xz. Where a first integrate
# compile's time goes on this host: jit_compile_bench (wall and CPU time, page faults;
# cold, after an empty compile, after a CUDA context), the CLI's compile_ms with an empty
# cache, and the steal time the kernel reports over the run; then the integrate tests.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c3.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg;
  lscpu | grep -E "Model name|MHz|Thread|Hypervisor"; } >>$OUT/summary.txt
head -1 /proc/stat >$L/stat0
s "jit_compile_bench"
for e in "x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)"; do
  for p in f32 f64; do
    for m in "" "warm" "cuda" "warm cuda"; do
      for r in 1 2 3; do
        echo "$e|$p|${m:-cold}|$($B/jit_compile_bench "$e" $p $m 2>&1)" >>$L/jit.txt
      done
    done
  done
done
cat $L/jit.txt >>$OUT/summary.txt
head -1 /proc/stat >$L/stat1
echo "cpu line before: $(cat $L/stat0)" >>$OUT/summary.txt
echo "cpu line after:  $(cat $L/stat1)" >>$OUT/summary.txt
s "CLI first compiles (empty cache)"
for e in "x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)"; do
  for p in f32 f64; do
    for r in 1 2 3; do
      rm -rf /tmp/clicache
      t0=$(date +%s%N)
      o=$(GPUPRIMS_CACHE_DIR=/tmp/clicache $B/gpuprims integrate -v "$e" 0 1 --precision $p 2>&1 | grep -o "compile_ms [0-9.]*")
      t1=$(date +%s%N)
      echo "cli $e $p r$r: $o, process wall $(((t1 - t0) / 1000000)) ms" >>$OUT/summary.txt
    done
  done
done
s "integrate tests"
timeout 200 ctest --test-dir $B -j 4 -R "integrate|codegen" --output-on-failure --timeout 150 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s done
save

#!/usr/bin/env bash
# Second GPU call of the tenth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90) in c2.tar.xz. The split integrate JIT cut at gp_trap_sum (one call
# across modules per thread) against the whole compile: kernel times (two rounds
# alternated), first-compile times cold and after a warm NVRTC start (jit_compile_bench
# ... warm), the CLI's first and cached runs, and the integrate tests with memcheck.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf c2.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg;
  lscpu | grep -E "Model name|MHz"; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null; } >>$OUT/summary.txt
export GPUPRIMS_CACHE_DIR=/tmp/gpcache
s "integrate A/B"
for r in 1 2; do
  for mode in split whole; do
    env=GPUPRIMS_JIT_SPLIT=1; [ $mode = whole ] && env=GPUPRIMS_JIT_SPLIT=0
    for e in "x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)"; do
      tag=$(echo "$e" | tr -c 'a-z0-9' '_' | cut -c1-12)
      env $env timeout 60 $B/gpuprims bench integrate --quiet --no-peers --max-time 0.3 \
        --expr "$e" --sizes 2^20,2^24,2^28 --json $L/int_${mode}_${tag}_r$r.json \
        >$L/int_${mode}_${tag}_r$r.txt 2>&1
      echo "int $mode $e round $r exit $?" >>$OUT/summary.txt
    done
  done
done
s "first compiles"
for e in "x^2" "sin(x)^2" "exp(-x^2) * cos(3*x) + sqrt(x + 1)"; do
  for p in f32 f64; do
    for sp in 1 0; do
      for w in cold warm; do
        a=(); [ $w = warm ] && a=(sm_90 warm)
        for r in 1 2 3 4 5; do
          echo "$e|$p|split=$sp|$w|$(GPUPRIMS_JIT_SPLIT=$sp $B/jit_compile_bench "$e" $p "${a[@]}")" >>$L/jit.txt
        done
      done
    done
  done
done
python3 - $L/jit.txt >>$OUT/summary.txt <<'PY'
import sys, re, collections, statistics
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    e, p, sp, w, out = line.rstrip('\n').split('|')
    kv = dict(x.split('=') for x in out.split())
    d[(e, p, sp, w)].append(kv)
for k, v in d.items():
    med = lambda f: statistics.median(float(x[f]) for x in v)
    extra = f" load {med('load_ms'):.1f} empty {med('empty_ms'):.1f}" if 'load_ms' in v[0] else ''
    print(*k, f"compile {med('compile_ms'):.1f} ms{extra}", sep=' | ')
PY
s "CLI first and cached"
for p in f32 f64; do
  for r in 1 2 3; do
    rm -rf /tmp/clicache
    for run in first cached; do
      t0=$(date +%s.%N)
      o=$(GPUPRIMS_CACHE_DIR=/tmp/clicache $B/gpuprims integrate -v "sin(x)^2" 0 pi --precision $p 2>&1 | tr '\n' ' ')
      t1=$(date +%s.%N)
      echo "cli $p $run r$r: wall $(python3 -c "print(round(($t1-$t0)*1e3,1))") ms: $o" >>$OUT/summary.txt
    done
  done
done
s "integrate tests"
timeout 200 ctest --test-dir $B -j 4 -R "integrate|codegen" --output-on-failure --timeout 150 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
GP_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_integrate_gpu_split >$L/san_memcheck.log 2>&1
echo "memcheck test_integrate_gpu_split: exit $? ($(tail -1 $L/san_memcheck.log))" >>$OUT/summary.txt
s done
save

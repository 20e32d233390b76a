#!/usr/bin/env bash
# Second GPU call of the fourth session: the new GPU code's tests (rows top-k, the JIT's
# one-evaluation kernel, the mapped CLI input) before the final run; first-compile
# times; the CLI reduce of a 1 GiB .npy (auto = CPU, cuda) beside NumPy.
set -u
T0=$SECONDS
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; }
tar xf gpubin.tar.xz
B=build; L=$OUT/logs; mkdir -p $L
cat COMMIT >>$OUT/summary.txt
s ctest
timeout 200 ctest --test-dir $B -j 8 -R "topk|integrate|codegen|io|cli_reduce|cli_sort|segments_gpu|sort_cpu" -E cli_install --output-on-failure --timeout 190 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Skipped|Failed|\*\*\*|Not Run|Timeout" $L/ctest.log >>$OUT/summary.txt
s compile
for p in f32 f64; do for e in 'sin(x)^2' 'exp(-x^2) * cos(3*x) + sqrt(x + 1)'; do d=$(mktemp -d)
  a=$(GPUPRIMS_CACHE_DIR=$d $B/gpuprims integrate "$e" 0 pi -v --precision $p | grep compile_ms)
  b=$(GPUPRIMS_CACHE_DIR=$d $B/gpuprims integrate "$e" 0 pi -v --precision $p | grep compile_ms)
  echo "$p $e: first $a / cached $b" >>$OUT/summary.txt; done; done
s "cli reduce"
python3 -c "import numpy as np; np.save('/tmp/f1g.npy', np.random.default_rng(13).random(1<<28, dtype=np.float32))"
python3 - >>$OUT/summary.txt 2>&1 <<'PY'
import subprocess, time, statistics, numpy as np
def w(f):
    t = time.perf_counter(); f(); return time.perf_counter() - t
r = {"auto": [], "cuda": [], "numpy": []}
for _ in range(5):
    for b in ("auto", "cuda"):
        r[b].append(w(lambda: subprocess.run(["build/gpuprims", "reduce", "/tmp/f1g.npy", "--backend", b], check=True, capture_output=True)))
    r["numpy"].append(w(lambda: np.load("/tmp/f1g.npy").sum()))
for k, v in r.items(): print("reduce 1 GiB f32 .npy %-6s median %.4f s  (%s)" % (k, statistics.median(v), " ".join("%.3f" % x for x in v)))
PY
s "integrate bench"
timeout 40 $B/gpuprims bench integrate --quiet --max-time 0.1 >$L/integrate.txt 2>&1; echo "bench integrate exit $?" >>$OUT/summary.txt
s done
tar czf $OUT/logs.tgz -C $OUT logs && rm -rf $L

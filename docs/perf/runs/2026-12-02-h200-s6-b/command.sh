#!/usr/bin/env bash
# Second GPU call of the sixth session (2026-12-02): binaries of the commit in summary.txt
# (Release, sm_90) carried as gpubin.tar.xz. Tiny segments by four lanes x eight keys in
# registers; AUTO pairs and argsort of 4-byte keys up to 2^16 by bitonic composites (ab0:
# argsort composites off). Tests, memcheck, pytest; benches beside CUB with and without the
# L2 flush (the small sorts' times jump between 2^12 and 2^13: is it the kernels' code
# fetched cold after the flush?); ncu on the tiny-segment kernels and the small argsorts.
set -u
T0=$SECONDS
L=/tmp/logs; mkdir -p $L
save() { tar czf $OUT/logs.tgz -C /tmp logs; }
s() { echo "[$((SECONDS - T0))s] $*" >>$OUT/summary.txt; save 2>/dev/null; }
tar xf gpubin.tar.xz
B=build
lib=$(realpath $B)/libgpuprims.so
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat COMMIT; nproc; cat /proc/loadavg; } >>$OUT/summary.txt
s ctest
timeout 240 ctest --test-dir $B -j 3 -R "sort_radix_gpu|radix_scratch|test_sort_gpu|topk_rows_gpu" --output-on-failure --timeout 230 >$L/ctest.log 2>&1
echo "ctest exit $?" >>$OUT/summary.txt
grep -E "tests passed|Failed|\*\*\*|Passed|sec$" $L/ctest.log >>$OUT/summary.txt
s memcheck
GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_sort_radix_gpu >$L/memcheck.log 2>&1
echo "memcheck test_sort_radix_gpu exit $? ($(tail -1 $L/memcheck.log))" >>$OUT/summary.txt
s pytest
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 90 python3 -m pytest -q -rs -p no:cacheprovider -k "sort" tests) >$L/pytest.log 2>&1
echo "pytest -k sort exit $? ($(tail -1 $L/pytest.log))" >>$OUT/summary.txt
s bench-offsets
BS="--max-time 0.3 --quiet --no-seed --no-segments --sizes 2^11"
timeout 120 $B/gpuprims bench sort $BS --offsets tiny,uniform,powerlaw --json $L/offsets.json >$L/offsets.txt 2>&1
echo "offsets exit $?" >>$OUT/summary.txt
grep -h "segments" $L/offsets.txt >>$OUT/summary.txt
s bench-small
SZ="--sizes 2^11,2^12,2^13,2^14,2^15,2^16,2^17"
AS="--max-time 0.25 --quiet --no-seed --no-segments $SZ"
for f in "" "--no-flush"; do
  t=${f:+_noflush}
  timeout 60 $B/gpuprims bench sort $AS $f --argsort --json $L/argsort$t.json >$L/argsort$t.txt 2>&1
  timeout 60 $B/gpuprims_ab0 bench sort $AS $f --argsort --no-peers >$L/argsort_ab0$t.txt 2>&1
  timeout 60 $B/gpuprims bench sort $AS $f --pairs u32 --algo auto --json $L/pairs$t.json >$L/pairs$t.txt 2>&1
  timeout 60 $B/gpuprims bench sort $AS $f --pairs u32 --algo radix --no-peers >$L/pairs_radix$t.txt 2>&1
  timeout 60 $B/gpuprims bench sort $AS $f --algo auto --json $L/keys$t.json >$L/keys$t.txt 2>&1
done
python3 - $L >>$OUT/summary.txt <<'PY'
import re, sys
L = sys.argv[1]
def rows(path):
    out = {}
    for line in open(path):
        t = line.split()
        if not t or t[0] != "gpuprims":
            continue
        i = next(j for j, x in enumerate(t) if re.fullmatch(r"2\^\d+", x))
        r = next((x for x in t if re.fullmatch(r"\d+\.\d+x", x)), "")
        out[t[i]] = (t[i + 4] + " " + t[i + 5], r)
    return out
for f in ["argsort", "argsort_ab0", "pairs", "pairs_radix", "keys"]:
    a, b = rows(f"{L}/{f}.txt"), rows(f"{L}/{f}_noflush.txt")
    print("==", f, "(flush, ratio | no flush, ratio)")
    for n in a:
        print("  ", n, a[n][0], a[n][1], "|", b.get(n, ("-", ""))[0], b.get(n, ("", ""))[1])
PY
s ncu
timeout 60 ncu --clock-control none -k regex:"rx_summarize|rx_warpsort" -c 2 --section SpeedOfLight \
  --section LaunchStats --section Occupancy --section WarpStateStats $B/gpuprims bench sort --max-time 0.01 \
  --min-samples 1 --warmup 0 --quiet --no-seed --no-segments --no-peers --sizes 2^11 --offsets tiny >$L/ncu_tiny.txt 2>&1
grep -E "rx_|Duration|Achieved Occupancy|Registers Per|DRAM Throughput" $L/ncu_tiny.txt >>$OUT/summary.txt
for n in 2^12 2^13; do
  for cc in all none; do
    timeout 60 ncu --clock-control none --cache-control $cc --section SpeedOfLight $B/gpuprims bench sort \
      --max-time 0.01 --min-samples 1 --warmup 0 --quiet --no-seed --no-segments --no-peers --argsort --sizes $n \
      >$L/ncu_argsort_${n}_$cc.txt 2>&1
    echo "argsort $n cache-control $cc: $(grep -E '^  [a-z_]+.*\(|Duration' $L/ncu_argsort_${n}_$cc.txt | sed -E 's/\(.*//; s/ +/ /g' | paste -sd' ' | cut -c1-400)" >>$OUT/summary.txt
  done
done
s done
save

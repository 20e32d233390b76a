#!/usr/bin/env bash
# s20-fuse (2026-12-03, twentieth session): the one-sweep pass of pairs (every shape but
# the wide one) puts its values into shared memory before the barrier after the
# look-back and writes keys and values in one loop (GP_RX_VAL_FUSE=1, binaries of $1)
# against the keys first, then the values (gpuprims_nofuse: -DGP_RX_VAL_FUSE=0 on
# radix.cu, the code of s20-final), alternated, two rounds; then test_sort_radix_gpu in
# full and pytest -k sort on the new build. Binaries in c20u.tar.xz.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf c20u.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
for r in 1 2; do
  for v in gpuprims gpuprims_nofuse; do
    [ $((SECONDS - T0)) -lt 100 ] || break
    timeout 30 $B/$v bench sort --algo auto --pairs u32 --sizes 2^20,2^24,2^28 --no-seed --no-segments --max-time 0.3 --quiet >$R/pairs_u32_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench sort --algo auto --dtype f32 --argsort --sizes 2^24,2^28 --no-seed --no-segments --max-time 0.3 --quiet >$R/argsort_f32_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] tests" >>$O
lib=$(realpath $B)/libgpuprims.so
(cd python && GPUPRIMS_LIBRARY=$lib PYTHONPATH=. timeout 100 python3 -m pytest -q -p no:cacheprovider tests -k "sort") >$R/pytest.log 2>&1
echo "pytest -k sort exit $? ($(tail -1 $R/pytest.log))" >>$O
timeout 200 $B/test_sort_radix_gpu >$R/test_sort_radix_gpu.log 2>&1
echo "test_sort_radix_gpu exit $? ($(tail -1 $R/test_sort_radix_gpu.log))" >>$O
echo "[$((SECONDS - T0))s] done" >>$O
pack
cat $O
for f in $R/pairs_* $R/argsort_*; do printf "%-34s" $(basename $f .txt); awk '$1=="gpuprims"{for(i=1;i<=NF;i++){if($i=="us"||$i=="ms")t=$(i-1)" "$i; if($i ~ /^[0-9.]+x$/) r=$i}; printf " %s:%s(%s)", $5, t, r}' $f; echo; done

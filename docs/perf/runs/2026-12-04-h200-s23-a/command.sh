#!/usr/bin/env bash
# s23-a (2026-12-04, twenty-third session): gpuprims = $1 with GP_SEG_PREFETCH 0 (the
# segment kernels as before), gpuprims_opfD = reduce_offsets.cu and gpuprims_rpfD =
# reduce_segments.cu with -DGP_SEG_PREFETCH=D (L2 prefetch D batches ahead).
# Owed from s22: test_reduce_exact_gpu in full on the reverted exact kernel; synccheck.
# Benches two rounds alternated; SASS of the F32 span kernel (where it spills).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23a.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 120 $B/test_reduce_exact_gpu >$R/test_exact.log 2>&1
echo "test_reduce_exact_gpu exit $? ($(grep -h passed $R/test_exact.log | tail -1))" >>$O
timeout 60 $B/test_reduce_segments_gpu >$R/test_seg.log 2>&1
echo "test_reduce_segments_gpu exit $? ($(grep -h passed $R/test_seg.log | tail -1))" >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
for r in 1 2; do
  for v in gpuprims gpuprims_opf2 gpuprims_opf4 gpuprims_opf8; do
    timeout 60 $B/$v bench reduce --offsets uniform,large,powerlaw --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/off24_${v}_r$r.txt 2>&1
    timeout 60 $B/$v bench reduce --offsets uniform,large --n 2^27 --dtype f32 --op sum --max-time 0.05 --quiet >$R/off27_${v}_r$r.txt 2>&1
  done
  for v in gpuprims gpuprims_rpf2 gpuprims_rpf4 gpuprims_rpf8; do
    timeout 60 $B/$v bench reduce --rows 1024,4096,16384,65536 --n 2^26 --dtype f32,f64 --op sum --max-time 0.05 --quiet >$R/rows_${v}_r$r.txt 2>&1
  done
  echo "[$((SECONDS - T0))s] round $r" >>$O; pack
done
cuobjdump -sass -fun '_Z18gp_off_span_kernelIf12gp_seg_exactIfELi12EEvPKT_PKmmPyPjS8_PKjjP10gp_seg_recINT0_1SEES7_SF_S7_PNSC_3OutE' $B/gpuprims >$R/span_f32.sass 2>&1
echo "sass lines $(wc -l <$R/span_f32.sass)" >>$O
echo "[$((SECONDS - T0))s] synccheck" >>$O; pack
GP_TEST_QUICK=1 timeout 150 compute-sanitizer --tool synccheck --error-exitcode 9 $B/test_reduce_exact_gpu >$R/sync_exact.log 2>&1
echo "synccheck test_reduce_exact_gpu (quick) exit $? ($(grep -h SUMMARY $R/sync_exact.log | tail -1); $(grep -h passed $R/sync_exact.log | tail -1))" >>$O
timeout 150 compute-sanitizer --tool synccheck --error-exitcode 9 $B/test_reduce_segments_gpu >$R/sync_seg.log 2>&1
echo "synccheck test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/sync_seg.log | tail -1); $(grep -h passed $R/sync_seg.log | tail -1))" >>$O
echo "[$((SECONDS - T0))s] done" >>$O; pack

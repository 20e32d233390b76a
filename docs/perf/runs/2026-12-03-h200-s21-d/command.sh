#!/usr/bin/env bash
# s21-d (2026-12-03, twenty-first session): binaries of $1 (reduce_offsets.cu with empty
# segments in the one-lane class) and variants of reduce_offsets.cu: inl
# (-DGP_OFF_PART_OOL=0: the warp's pass inline), inlc (inline, consecutive windows),
# contig (-DGP_OFF_STRIDED=0), and gpuprims_oldseg (91d72fc). Tests: test_reduce_segments_gpu
# and its memcheck. Benches: --offsets of every kind at 2^24 (f32 sum, i32 max), uniform
# at 2^27, alternated, two rounds, CUB in each process.
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s21d.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$O
timeout 100 $B/test_reduce_segments_gpu >$R/test.log 2>&1; echo "test_reduce_segments_gpu exit $? ($(tail -1 $R/test.log))" >>$O
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $B/test_reduce_segments_gpu >$R/memcheck.log 2>&1
echo "memcheck test_reduce_segments_gpu exit $? ($(grep -h SUMMARY $R/memcheck.log | tail -1); $(grep -h passed $R/memcheck.log | tail -1))" >>$O
echo "[$((SECONDS - T0))s] benches" >>$O; pack
K=uniform,powerlaw,tiny,one,large,mix
for r in 1 2; do
  for v in gpuprims gpuprims_inl gpuprims_inlc gpuprims_contig gpuprims_oldseg; do
    [ $((SECONDS - T0)) -lt 300 ] || break
    timeout 40 $B/$v bench reduce --offsets $K --n 2^24 --dtype f32 --op sum --max-time 0.1 --quiet >$R/off_sum_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench reduce --offsets uniform,tiny,powerlaw --n 2^24 --dtype i32 --op max --max-time 0.1 --quiet --no-peers >$R/off_max_${v}_r$r.txt 2>&1
    timeout 30 $B/$v bench reduce --offsets uniform --n 2^27 --dtype f32 --op sum --max-time 0.1 --quiet >$R/off_n_${v}_r$r.txt 2>&1
  done
  pack
done
echo "[$((SECONDS - T0))s] done" >>$O; pack

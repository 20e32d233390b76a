#!/usr/bin/env bash
# s23-h (2026-12-04): gpuprims of $1 (the session's last code: offsets with the span
# kernel as a dependent launch). Offsets f32/f64 at 2^24 with JSON (README's row and
# the picture), f32 at 2^20 and 2^27, CUB beside.
set -u
R=/tmp/r; rm -rf $R; mkdir -p $R
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s23h.tar.xz
B=build
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "binaries of ${1:-?}"; } >$R/summary.txt
timeout 40 $B/gpuprims bench reduce --offsets uniform,powerlaw,tiny,one,large,mix --n 2^24 --dtype f32,f64 --op sum --max-time 0.05 --quiet --json $R/offsets.json >$R/offsets.txt 2>&1
timeout 40 $B/gpuprims bench reduce --offsets uniform,powerlaw,large --n 2^20,2^27 --dtype f32 --op sum --max-time 0.05 --quiet >$R/offsets_n.txt 2>&1
pack

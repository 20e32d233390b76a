#!/usr/bin/env bash
# s27-py (2026-12-04): library of $1 (the session's last code; aae8059 changed only the
# Python package after s27-final). The whole pytest suite on the H200 (torch, CuPy, JAX).
set -u
T0=$SECONDS
R=/tmp/r; rm -rf $R; mkdir -p $R
O=$R/summary.txt
pack() { tar czf $OUT/r.tgz -C /tmp r; }
tar xf s27p.tar.xz
{ echo "library of ${1:-?}"; uptime; } >$O
export GPUPRIMS_LIBRARY=$(realpath build)/libgpuprims.so
(cd python && PYTHONPATH=. timeout 240 python3 -m pytest -q) >$R/pytest.txt 2>&1
echo "pytest exit $? [$((SECONDS - T0))s]" >>$O; tail -n 3 $R/pytest.txt >>$O; pack

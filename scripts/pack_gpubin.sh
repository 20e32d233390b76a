#!/usr/bin/env bash
# Packs what CTest and the benchmarks need from a build made here (default: build) into
# gpubin.tgz: binaries, the shared library and the CTest files, at their paths, so a
# GPU machine that has the repository at the same path runs them without building:
#   tar xzf gpubin.tgz && GP_BUILD_DIR=build scripts/gpu_verify.sh test force sanitize
# (the device tool carries gpubin.tgz: an ignored path named in `carry`).
set -eu
B=${1:-build}
files=("$B"/gpuprims "$B"/libgpuprims.so* "$B"/test_* "$B"/CTestTestfile.cmake)
tar czf gpubin.tgz "${files[@]}"
ls -la gpubin.tgz

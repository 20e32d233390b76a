#!/usr/bin/env bash
# Packs the binaries of a build made here (default build-lead) into gpubin.tgz, which the
# device tool carries to the GPU machine for scripts/gpu_check.sh (no build there).
set -eu
B=${1:-build-lead}
rm -rf gpubin gpubin.tgz && mkdir gpubin
cp "$B"/gpuprims "$B"/test_* gpubin/
tar czf gpubin.tgz gpubin && rm -rf gpubin
ls -la gpubin.tgz

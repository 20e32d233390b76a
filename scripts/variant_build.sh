#!/usr/bin/env bash
# Builds a variant of the gpuprims binary in which one CUDA source is compiled with
# extra flags (e.g. a tuning knob of src/cuda/sort/radix_policy.h), for A/B runs on the
# GPU machine without a second build tree: the object is recompiled with the build's own
# command plus FLAGS, put into a copy of libgpuprims.a, and gpuprims relinked.
#   scripts/variant_build.sh BUILD_DIR NAME SOURCE.cu "FLAGS"
#   e.g. scripts/variant_build.sh build i20 src/cuda/sort/radix.cu "-DGP_RX_ITEMS4=20"
# writes BUILD_DIR/gpuprims_NAME (a Ninja build of the default gpuprims target),
# BUILD_DIR/TARGET_NAME for each executable in the environment's VARIANT_TARGETS, and,
# with VARIANT_SO=1, BUILD_DIR/libgpuprims_NAME.so (for the Python package:
# GPUPRIMS_LIBRARY=.../libgpuprims_NAME.so).
set -euo pipefail
B=$1 NAME=$2 SRC=$3 FLAGS=${4:-}
obj=CMakeFiles/gpuprims_obj.dir/$SRC.o
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$B"
cmd=$(ninja -t commands libgpuprims.a | grep -E -- "-o $obj( |\$)" | head -1 || true)
[ -n "$cmd" ] || { echo "variant_build.sh: no compile command for $SRC in $B" >&2; exit 1; }
# same command, the object elsewhere, no depfile, the extra flags
cmd=$(sed -E "s#-o $obj( |\$)#-o $tmp/$(basename "$SRC").o $FLAGS #; s#-MD -MT [^ ]+ -MF [^ ]+##" <<<"$cmd")
# VARIANT_SRC=FILE compiles FILE in SOURCE's place (e.g. an earlier commit's version of
# it, from `git show REV:SOURCE > FILE`), with the build's include paths
if [ -n "${VARIANT_SRC:-}" ]; then
  cmd=$(sed -E "s#-c [^ ]*$SRC( |\$)#-c $(realpath "$VARIANT_SRC") #" <<<"$cmd")
fi
bash -c "$cmd"
cp libgpuprims.a "$tmp/lib.a"
(cd "$tmp" && ar r lib.a "$(basename "$SRC").o")
# gpuprims, and each target in VARIANT_TARGETS (e.g. "test_reduce_exact_gpu"), relinked
# against the variant as TARGET_NAME
for t in gpuprims ${VARIANT_TARGETS:-}; do
  link=$(ninja -t commands "$t" | tail -1 | sed -E "s#^: && ##; s# && :\$##; s#-o $t #-o ${t}_$NAME #; s# libgpuprims.a # $tmp/lib.a #")
  bash -c "$link"
  ls -la "${t}_$NAME"
done
if [ "${VARIANT_SO:-0}" = 1 ]; then
  # the shared library links the objects themselves: the same command, this object
  # swapped for the variant's
  link=$(ninja -t commands libgpuprims.so | grep -E -- " -shared .*-o libgpuprims\.so\.[0-9.]+ " | tail -1 |
         sed -E "s#^: && ##; s# && :\$##; s#-o libgpuprims\.so\.[0-9.]+ #-o libgpuprims_$NAME.so #; s# $obj # $tmp/$(basename "$SRC").o #")
  [ -n "$link" ] || { echo "variant_build.sh: no link command for libgpuprims.so in $B" >&2; exit 1; }
  bash -c "$link"
  ls -la "libgpuprims_$NAME.so"
fi

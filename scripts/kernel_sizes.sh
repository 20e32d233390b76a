#!/usr/bin/env bash
# Per-kernel SASS size, registers and spills of one CUDA source, compiled for one
# architecture with the build's own command (no GPU, no cuobjdump needed: the sizes are
# the cubin's .text sections, read by readelf). Small kernels run with cold instruction
# caches whenever the L2 was flushed; on the H200 the exact SUM's 106-151 KB grid kernel
# lost to a 63-67 KB one-block form by 0.4-2.7 us at 1000-2047 F64 elements
# (docs/perf/reduce.md, seventeenth session), so code size is worth watching.
#   scripts/kernel_sizes.sh BUILD_DIR SOURCE.cu [ARCH] [FLAGS]  (ARCH default 90; FLAGS
#   e.g. "-DGP_RX_VAL_EARLY=1", as scripts/variant_build.sh takes them)
#   e.g. scripts/kernel_sizes.sh build src/cuda/reduce/reduce_exact.cu
set -euo pipefail
B=$1 SRC=$2 ARCH=${3:-90} FLAGS=${4:-}
obj=CMakeFiles/gpuprims_obj.dir/$SRC.o
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$B"
cmd=$(ninja -t commands libgpuprims.a | grep -E -- "-o $obj( |\$)" | head -1 || true)
[ -n "$cmd" ] || { echo "kernel_sizes.sh: no compile command for $SRC in $B" >&2; exit 1; }
# the same command, one real architecture, a cubin instead of the object, ptxas verbose
cmd=$(sed -E "s#-o $obj( |\$)#-o $tmp/k.cubin #; s#-MD -MT [^ ]+ -MF [^ ]+##;
              s#--generate-code=arch=[^ ]+##g; s# -c # -cubin -arch=sm_$ARCH -Xptxas -v $FLAGS #" <<<"$cmd")
bash -c "$cmd" 2>"$tmp/ptxas.txt"
# ptxas: "Compiling entry function 'NAME'", then "Function properties for" the entry and
# each function it calls, each followed by its spill line, then the entry's registers
awk '/Compiling entry function/ { name = $0; sub(/.*function ./, "", name); sub(/. for .*/, "", name) }
     /Function properties for/ { props = $NF }
     /Used [0-9]+ registers/ && name { for (i = 1; i <= NF; i++) if ($(i + 1) == "registers,") regs[name] = $i }
     /spill stores/ && name && props == name { spill[name] = $5 "/" $9 }
     END { for (k in regs) print k, regs[k], (k in spill ? spill[k] : "0/0") }' "$tmp/ptxas.txt" \
  | sort >"$tmp/regs.txt"
printf "%9s %5s %11s  %s\n" "SASS B" "regs" "spill st/ld" "kernel"
readelf -S -W "$tmp/k.cubin" 2>/dev/null | awk '$2 ~ /^\.text\./ { sub(/^\.text\./, "", $2); print $2, $6 }' \
  | sort | join -a 1 - "$tmp/regs.txt" \
  | while read -r name hex regs spill; do
      printf "%9d %5s %11s  %s\n" "$((16#$hex))" "${regs:--}" "${spill:--}" "$(c++filt "$name" 2>/dev/null || echo "$name")"
    done | sort -k4

#!/usr/bin/env bash
# CLI test of `gpuprims reduce` (and the usage/exit conventions of info and bench) on the
# CPU backend: .npy files written byte by byte with python3's struct (no numpy needed),
# text and raw files, expected values computed independently by python3.
# usage: bash tests/cli_reduce.sh <path-to-gpuprims> <repo-root>
set -u
G=${1:?path to gpuprims}
command -v python3 >/dev/null || { echo "cli_reduce: SKIPPED, python3 not found"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gpuprims_cli_reduce.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0; pass=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }

# expect_out EXPECTED ARGS...: exit 0 and stdout == EXPECTED
expect_out() {
  local want=$1; shift
  local got rc
  got=$("$G" "$@" 2>"$T/err"); rc=$?
  if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then ok
  else bad "gpuprims $* -> rc=$rc out='$got' (want '$want') err='$(cat "$T/err")'"; fi
}
# expect_rc RC NEEDLE ARGS...: exit RC and stderr mentions NEEDLE (one line)
expect_rc() {
  local want=$1 needle=$2; shift 2
  "$G" "$@" >"$T/out" 2>"$T/err"; local rc=$?
  local lines; lines=$(wc -l <"$T/err")
  if [ $rc -eq "$want" ] && grep -qF -- "$needle" "$T/err" && [ "$lines" -le 1 ]; then ok
  else bad "gpuprims $* -> rc=$rc (want $want), stderr ($lines lines): $(cat "$T/err") (want '$needle')"; fi
}

# ---- files -------------------------------------------------------------------------
python3 - "$T" <<'PY'
import struct, sys, random
d = sys.argv[1]
def npy(path, descr, shape, fmt, values, version=1, fortran=False):
    h = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, 'True' if fortran else 'False',
        '(' + ''.join('%d, ' % s for s in shape).rstrip(' ') + ')' if len(shape) != 1 else '(%d,)' % shape[0])
    lb = 2 if version == 1 else 4
    total = (8 + lb + len(h) + 1 + 63) // 64 * 64
    hl = total - 8 - lb
    h = h + ' ' * (hl - len(h) - 1) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY' + bytes([version, 0]))
        f.write(struct.pack('<H' if lb == 2 else '<I', hl))
        f.write(h.encode())
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))
random.seed(7)
n = 100000
ints = [random.randint(-2**31, 2**31 - 1) for _ in range(n)]
npy(d + '/i32.npy', '<i4', (n,), 'i', ints)
open(d + '/i32.sum', 'w').write('%d\n%d\n%d\n' % (sum(ints), min(ints), max(ints)))
open(d + '/i32.arg', 'w').write('%d %d\n%d %d\n' % (ints.index(min(ints)), min(ints),
                                                   ints.index(max(ints)), max(ints)))
u64 = [random.randint(0, 2**64 - 1) for _ in range(1000)]
npy(d + '/u64.npy', '<u8', (10, 100), 'Q', u64, version=2)
open(d + '/u64.sum', 'w').write('%d\n%d\n%d\n' % (sum(u64) % 2**64, min(u64), max(u64)))
# f64 values that are exact binary fractions: the sum is exact whatever the order
f = [random.randint(-2**20, 2**20) / 1024.0 for _ in range(5000)]
npy(d + '/f64.npy', '<f8', (5000,), 'd', f, version=3)
open(d + '/f64.sum', 'w').write('%r\n%r\n%r\n' % (sum(f), min(f), max(f)))
npy(d + '/f32.npy', '<f4', (2, 2), 'f', [0.5, -1.25, 3.0, 2.0])
npy(d + '/fortran.npy', '<f4', (2, 2), 'f', [0.5, -1.25, 3.0, 2.0], fortran=True)
npy(d + '/big_endian.npy', '>f4', (4,), 'f', [1, 2, 3, 4])
npy(d + '/empty.npy', '<f8', (0,), 'd', [])
with open(d + '/trunc.npy', 'wb') as o:
    o.write(open(d + '/i32.npy', 'rb').read()[:200])
with open(d + '/raw.bin', 'wb') as o:
    o.write(struct.pack('<5I', 1, 2, 3, 4, 4000000000))
with open(d + '/odd.bin', 'wb') as o:
    o.write(b'\x01\x02\x03\x04\x05')
PY
printf '# a comment\n1\n2\n\n  3  # three\n-4\n' > "$T/small.txt"
printf '9223372036854775807\n-9223372036854775807\n5\n' > "$T/i64.txt"
printf '1\n2\n3\n4\n5\n6\nabc\n' > "$T/bad.txt"
printf '0.1\n0.2\n' > "$T/f32.csv"

# ---- results -------------------------------------------------------------------------
read -r s mn mx < <(tr '\n' ' ' <"$T/i32.sum")
for algo in auto interleaved sequential two-phase warp-atomic; do
  expect_out "$s" reduce "$T/i32.npy" --backend cpu --algo "$algo"
done
expect_out "$mn" reduce "$T/i32.npy" --backend cpu --op min
expect_out "$mx" reduce "$T/i32.npy" --op max --backend cpu
read -r s mn mx < <(tr '\n' ' ' <"$T/u64.sum")
expect_out "$s" reduce "$T/u64.npy" --backend cpu
expect_out "$mn" reduce "$T/u64.npy" --backend cpu --op min
expect_out "$mx" reduce "$T/u64.npy" --backend cpu --op max
read -r s mn mx < <(tr '\n' ' ' <"$T/f64.sum")
want=$(python3 -c "print('%.17g' % $s)")
expect_out "$want" reduce "$T/f64.npy" --backend cpu
expect_out "$(python3 -c "print('%.17g' % $mn)")" reduce "$T/f64.npy" --backend cpu --op min
expect_out "4.25" reduce "$T/f32.npy" --backend cpu
expect_out "-1.25" reduce "$T/f32.npy" --backend cpu --op min
expect_out "0" reduce "$T/empty.npy" --backend cpu
expect_out "2" reduce "$T/small.txt" --backend cpu
expect_out "-4" reduce "$T/small.txt" --backend cpu --op min --dtype i32
expect_out "5" reduce "$T/i64.txt" --backend cpu --dtype i64
expect_out "9223372036854775807" reduce "$T/i64.txt" --backend cpu --dtype i64 --op max
expect_out "4000000010" reduce "$T/raw.bin" --backend cpu --dtype u32
expect_out "4000000000" reduce "$T/raw.bin" --backend cpu --dtype u32 --op max
expect_out "$(python3 -c "import struct;f=lambda x:struct.unpack('f',struct.pack('f',x))[0];print('%.9g'%f(f(0.1)+f(0.2)))")" \
  reduce "$T/f32.csv" --backend cpu --dtype f32
expect_out "0.30000000000000004" reduce "$T/f32.csv" --backend cpu
expect_out "3" reduce "$T/small.txt" --backend cpu --format text --op max
# argmin / argmax: "INDEX VALUE", first occurrence, the first NaN wins
expect_out "$(sed -n 1p "$T/i32.arg")" reduce "$T/i32.npy" --backend cpu --op argmin
expect_out "$(sed -n 2p "$T/i32.arg")" reduce "$T/i32.npy" --backend cpu --op argmax
printf '3\n9\n1\n9\n-1\n-1\n' > "$T/ties.txt"
expect_out "1 9" reduce "$T/ties.txt" --backend cpu --op argmax
expect_out "4 -1" reduce "$T/ties.txt" --backend cpu --op argmin
printf '3\nnan\n9\nnan\n' > "$T/nan.txt"
expect_out "1 nan" reduce "$T/nan.txt" --backend cpu --op argmin
expect_rc 2 "argmax" reduce "$T/ties.txt" --op argmux
# --rows N: one result per row
expect_out "$(printf '3\n-1')" reduce "$T/small.txt" --backend cpu --rows 2
expect_out "$(printf '1\n2\n3\n-4')" reduce "$T/small.txt" --backend cpu --rows 4 --op max
expect_rc 1 "not a multiple of --rows 3" reduce "$T/small.txt" --backend cpu --rows 3
# argmax / argmin --rows N: "INDEX VALUE" lines, the index within the row
expect_out "$(printf '1 2\n0 3')" reduce "$T/small.txt" --backend cpu --rows 2 --op argmax
expect_out "$(printf '0 1\n1 -4')" reduce "$T/small.txt" --rows 2 --op argmin
expect_rc 2 "--rows needs" reduce "$T/small.txt" --rows 0
# topk: "INDEX VALUE" lines, sorted, ties to the lower index
expect_out "$(printf '1 9\n3 9\n0 3')" topk "$T/ties.txt" -k 3 --backend cpu
expect_out "$(printf '4 -1\n5 -1')" topk "$T/ties.txt" -k 2 --smallest --backend cpu
expect_rc 1 "1 <= k <= n" topk "$T/ties.txt" -k 7 --backend cpu
expect_rc 2 "no -k K" topk "$T/ties.txt"
# topk --rows N: "ROW INDEX VALUE" lines, the index within the row
expect_out "$(printf '0 1 9\n0 0 3\n1 0 9\n1 1 -1')" topk "$T/ties.txt" -k 2 --rows 2 --backend cpu
expect_out "$(printf '0 2 1\n1 1 -1')" topk "$T/ties.txt" -k 1 --rows 2 --smallest
expect_rc 1 "not a multiple of --rows 4" topk "$T/ties.txt" -k 1 --rows 4
expect_rc 1 "1 <= k <= cols" topk "$T/ties.txt" -k 4 --rows 2
expect_rc 2 "--rows needs" topk "$T/ties.txt" -k 1 --rows 0
# --backend auto reduces a file on the CPU (mapped, not read); the GPU, where there is
# one, prints the same bits
gpu=0
"$G" info --no-measure 2>/dev/null | grep -q "backend:        cuda" && gpu=1
for f in i32.npy u64.npy f64.npy f32.npy raw.bin; do
  dt=""; [ "$f" = raw.bin ] && dt="--dtype u32"
  for op in sum min max argmin argmax; do
    # shellcheck disable=SC2086
    want=$("$G" reduce "$T/$f" --backend cpu --op $op $dt 2>"$T/err") || bad "reduce $f --op $op: $(cat "$T/err")"
    # shellcheck disable=SC2086
    expect_out "$want" reduce "$T/$f" --op $op $dt
    # shellcheck disable=SC2086
    [ $gpu = 1 ] && expect_out "$want" reduce "$T/$f" --op $op --backend cuda $dt
  done
  for op in argmin argmax; do # one row: the per-row kernel (its index and value)
    # shellcheck disable=SC2086
    want=$("$G" reduce "$T/$f" --backend cpu --op $op --rows 1 $dt 2>"$T/err") || bad "reduce $f --op $op --rows 1: $(cat "$T/err")"
    # shellcheck disable=SC2086
    [ $gpu = 1 ] && expect_out "$want" reduce "$T/$f" --op $op --rows 1 --backend cuda $dt
  done
  # shellcheck disable=SC2086
  want=$("$G" topk "$T/$f" -k 3 --backend cpu $dt 2>"$T/err") || bad "topk $f: $(cat "$T/err")"
  # shellcheck disable=SC2086
  expect_out "$want" topk "$T/$f" -k 3 $dt
  # shellcheck disable=SC2086
  [ $gpu = 1 ] && expect_out "$want" topk "$T/$f" -k 3 --backend cuda $dt
done
expect_out "$(printf '3\n-1')" reduce "$T/small.txt" --rows 2
[ $gpu = 1 ] && expect_out "$(printf '1 2\n0 3')" reduce "$T/small.txt" --backend cuda --rows 2 --op argmax
# correctly rounded sums: the exact sum rounded once
printf '1e308\n1\n-1e308\n' > "$T/cancel.txt"
expect_out "1" reduce "$T/cancel.txt" --backend cpu
printf '1e30\n1\n-1e30\n' > "$T/cancel32.txt"
expect_out "1" reduce "$T/cancel32.txt" --backend cpu --dtype f32

# ---- failures: one line naming the file and the problem, exit 1 --------------------------
expect_rc 1 "$T/missing.npy: cannot open: No such file" reduce "$T/missing.npy" --backend cpu
expect_rc 1 "bad.txt line 7, byte 12: 'abc' is not a number" reduce "$T/bad.txt" --backend cpu
expect_rc 1 "trunc.npy: header says 100000 elements" reduce "$T/trunc.npy" --backend cpu
expect_rc 1 "Fortran" reduce "$T/fortran.npy" --backend cpu
expect_rc 1 "big-endian" reduce "$T/big_endian.npy" --backend cpu
expect_rc 1 "not a multiple of 4" reduce "$T/odd.bin" --backend cpu --dtype f32
expect_rc 1 "--dtype" reduce "$T/raw.bin" --backend cpu
expect_rc 1 "not a .npy file" reduce "$T/small.txt" --backend cpu --format npy
expect_rc 1 "empty.npy" reduce "$T/empty.npy" --backend cpu --op min
expect_rc 1 "i64.txt line 2, byte 20: '-9223372036854775807' is negative" reduce "$T/i64.txt" --backend cpu --dtype u64
expect_rc 1 "is a directory" reduce "$T" --backend cpu --format text

# ---- usage errors: exit 2; --help: exit 0 -----------------------------------------------------
expect_rc 2 "unknown option '--bogus'" reduce "$T/small.txt" --bogus
expect_rc 2 "unknown op 'avg'" reduce "$T/small.txt" --op avg
expect_rc 2 "unknown algo" reduce "$T/small.txt" --algo fast
expect_rc 2 "unknown dtype 'f16'" reduce "$T/small.txt" --dtype f16
expect_rc 2 "unknown format" reduce "$T/small.txt" --format hdf5
expect_rc 2 "unknown backend" reduce "$T/small.txt" --backend tpu
expect_rc 2 "needs a value" reduce "$T/small.txt" --op
expect_rc 2 "no FILE" reduce
expect_rc 2 "more than one FILE" reduce "$T/small.txt" "$T/bad.txt"
expect_rc 2 "unknown option" info --bogus
expect_rc 2 "unknown suite" bench nosuch
# a build configured with -DGP_BUILD_BENCH=OFF says so for every suite (and is checked
# for that); the suite's own checks need the suites built
if "$G" bench reduce --help 2>&1 | grep -q "the benchmark suites were not built"; then
  nobench=1
  echo "cli_reduce: the benchmark suites are not built here; their checks are not run"
else
  nobench=0
fi
if [ $nobench -eq 1 ]; then
  expect_rc 1 "configure with -DGP_BUILD_BENCH=ON" bench reduce
else
  expect_rc 2 "unknown option" bench reduce --bogus
  expect_rc 2 "--max-time" bench reduce --max-time -1
fi
cmds=("reduce" "info" "bench")
[ $nobench -eq 1 ] || cmds+=("bench reduce")
for cmd in "${cmds[@]}"; do
  # shellcheck disable=SC2086
  if "$G" $cmd --help >"$T/out" 2>&1 && grep -q "usage: gpuprims" "$T/out"; then ok
  else bad "gpuprims $cmd --help"; fi
done

# ---- info and a tiny CPU benchmark run end to end ----------------------------------------------
if "$G" info --backend cpu --no-measure >"$T/out" 2>"$T/err" &&
   grep -q "self-check: .*549756338176.*549756338176: ok" "$T/out"; then ok
else bad "gpuprims info --backend cpu: $(cat "$T/out" "$T/err")"; fi
if [ $nobench -eq 1 ]; then :
elif "$G" bench reduce --backend cpu --n 2^12 --algo all --max-time 0.05 --min-samples 3 \
     --json "$T/b.json" --quiet >"$T/out" 2>"$T/err" &&
   python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['rows']; \
assert len(r)==5 and all(x['ok'] and x['samples']>=3 and x['median_s']>0 for x in r), r" "$T/b.json"; then ok
else bad "gpuprims bench reduce --backend cpu: $(cat "$T/out" "$T/err")"; fi

echo "cli_reduce: $pass passed, $fail failed"
[ $fail -eq 0 ]

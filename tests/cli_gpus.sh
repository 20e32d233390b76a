#!/usr/bin/env bash
# `gpuprims sort --gpus` and `gpuprims reduce --gpus` (one process, gp_dist_create_local).
# Everywhere: bad values and options that do not go with --gpus exit 2; with fewer than 2
# GPUs (or no NCCL) `--gpus 2` exits 1 with one line saying why and writes no output.
# --dist-file (one rank of a launched job): refusals and a missing launcher everywhere;
# with 2+ GPUs two ranks started as torchrun would give one GPU's bytes and sum.
# With 2+ GPUs (nvidia-smi -L): --gpus 2 and --gpus all give the same output bytes as
# one GPU, over u32/i64/f32/f64 files with NaNs, -0, infinities, duplicates, odd counts,
# one key and none (about 50 runs, each starting NCCL); without them that part is
# skipped, saying so, and the test exits 77.
# usage: bash tests/cli_gpus.sh <path-to-gpuprims> <repo-root>
set -u
G=${1:?path to gpuprims}
command -v python3 >/dev/null || { echo "cli_gpus: SKIPPED, python3 not found"; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/gpuprims_cli_gpus.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0; pass=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }

# expect_rc RC NEEDLE ARGS...: exit RC and stderr one line mentioning NEEDLE
expect_rc() {
  local want=$1 needle=$2; shift 2
  "$G" "$@" >"$T/out" 2>"$T/err"; local rc=$?
  local lines; lines=$(wc -l <"$T/err")
  if [ $rc -eq "$want" ] && grep -qF -- "$needle" "$T/err" && [ "$lines" -le 1 ]; then ok
  else bad "gpuprims $* -> rc=$rc (want $want), stderr ($lines lines): $(cat "$T/err") (want '$needle')"; fi
}

python3 - "$T" <<'PY'
import math, random, struct, sys
d = sys.argv[1]
random.seed(11)
def npy(path, descr, fmt, values):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(values))
    h += ' ' * ((64 - (10 + len(h) + 1) % 64) % 64) + '\n'
    with open(path, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode())
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))
n = 1000003  # odd: the shards differ in size
npy(d + '/u32.npy', '<u4', 'I', [random.randint(0, 2**32 - 1) for _ in range(n)])
npy(d + '/dup.npy', '<i8', 'q', [random.randint(-3, 3) for _ in range(n)])
special = [math.nan, -math.nan, math.inf, -math.inf, 0.0, -0.0, 1e-45, -1e38]
f = [random.uniform(-1e6, 1e6) for _ in range(n)] + special * 100
random.shuffle(f)
npy(d + '/f32.npy', '<f4', 'f', f)
npy(d + '/f32fin.npy', '<f4', 'f', [random.uniform(-1e6, 1e6) for _ in range(n)])
npy(d + '/f64.npy', '<f8', 'd', [random.gauss(0, 1) * 10 ** random.randint(-30, 30) for _ in range(n)])
npy(d + '/sorted.npy', '<u8', 'Q', list(range(n)))
npy(d + '/one.npy', '<f8', 'd', [2.5])
npy(d + '/empty.npy', '<i4', 'i', [])
PY
printf '5\n-3\n10\n0\n' >"$T/a.txt"

# ---- usage errors: exit 2 ----------------------------------------------------------------
expect_rc 2 "--gpus needs a number of GPUs" sort "$T/a.txt" "$T/x.txt" --gpus 0
expect_rc 2 "--gpus needs a number of GPUs" sort "$T/a.txt" "$T/x.txt" --gpus x
expect_rc 2 "--gpus needs a number of GPUs" sort "$T/a.txt" "$T/x.txt" --gpus -1
expect_rc 2 "--gpus needs a value" sort "$T/a.txt" "$T/x.txt" --gpus
expect_rc 2 "--segment" sort "$T/a.txt" "$T/x.txt" --gpus 2 --segment 4
expect_rc 2 "--argsort" sort "$T/a.txt" "$T/x.txt" --gpus 2 --argsort
expect_rc 2 "--algo" sort "$T/a.txt" "$T/x.txt" --gpus all --algo radix
expect_rc 2 "--backend cpu" sort "$T/a.txt" "$T/x.txt" --backend cpu --gpus 2
expect_rc 2 "--gpus needs a number of GPUs" reduce "$T/a.txt" --gpus 0
expect_rc 2 "--gpus needs a number of GPUs" reduce "$T/a.txt" --gpus two
expect_rc 2 "--rows" reduce "$T/a.txt" --gpus 2 --rows 2
expect_rc 2 "sum, min or max only" reduce "$T/a.txt" --gpus 2 --op argmin
expect_rc 2 "--algo" reduce "$T/a.txt" --gpus 2 --algo two-phase
expect_rc 2 "--backend cpu" reduce "$T/a.txt" --gpus 2 --backend cpu
expect_rc 2 "do not go together" sort "$T/a.txt" "$T/x.txt" --gpus 2 --dist-file "$T/id"
expect_rc 2 "--dist-file sorts the whole array" sort "$T/a.txt" "$T/x.txt" --dist-file "$T/id" --argsort
expect_rc 2 "--dist-file needs a value" sort "$T/a.txt" "$T/x.txt" --dist-file
expect_rc 2 "do not go together" reduce "$T/a.txt" --dist-file "$T/id" --gpus all
expect_rc 2 "--dist-file reduces the whole array" reduce "$T/a.txt" --dist-file "$T/id" --rows 2
if [ ! -e "$T/x.txt" ]; then ok; else bad "a refused sort wrote its output"; fi
for cmd in sort reduce; do
  if "$G" $cmd --help | grep -q -- "--gpus N|all"; then ok; else bad "$cmd --help lacks --gpus"; fi
  if "$G" $cmd --help | grep -q -- "--dist-file PATH"; then ok; else bad "$cmd --help lacks --dist-file"; fi
done
# --dist-file outside a launcher: exit 1 naming the missing variable (or NCCL/GPU when absent)
env -u RANK -u WORLD_SIZE -u LOCAL_RANK "$G" sort "$T/a.txt" "$T/x.txt" --dist-file "$T/id" \
  >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && grep -qE "RANK is not set|NCCL|GPU" "$T/err" && [ ! -e "$T/x.txt" ]; then ok
else bad "--dist-file without RANK: rc=$rc, $(cat "$T/err")"; fi
RANK=0 WORLD_SIZE=1 LOCAL_RANK=x "$G" reduce "$T/a.txt" --dist-file "$T/id" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && grep -qE "LOCAL_RANK is 'x'|NCCL|GPU" "$T/err"; then ok
else bad "--dist-file with LOCAL_RANK=x: rc=$rc, $(cat "$T/err")"; fi

# ---- fewer than 2 GPUs, or no NCCL: exit 1, one line, nothing written ----------------------
ngpu=0
command -v nvidia-smi >/dev/null && ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
nccl_missing() { grep -q "GP_ERR_UNSUPPORTED" "$T/err"; }
if [ "$ngpu" -lt 2 ]; then
  expect_rc 1 "--gpus 2: cannot drive the GPUs through NCCL" sort "$T/a.txt" "$T/x.txt" --gpus 2 --algo auto
  # the library's reason, after "(GP_ERR_...): ", names what is missing
  if sed 's/.*(GP_ERR_[A-Z_]*): //' "$T/err" | grep -qE "NCCL|GPU"; then ok
  else bad "the --gpus 2 failure does not say why: $(cat "$T/err")"; fi
  if [ ! -e "$T/x.txt" ]; then ok; else bad "a failed --gpus sort wrote its output"; fi
  expect_rc 1 "--gpus 2: cannot drive the GPUs through NCCL" reduce "$T/a.txt" --gpus 2
  if [ ! -s "$T/out" ]; then ok; else bad "a failed --gpus reduce printed a result: $(cat "$T/out")"; fi
fi

# ---- 2+ GPUs: --gpus 2 and --gpus all give what one GPU gives ------------------------------
skipped=""
if [ "$ngpu" -lt 2 ]; then
  skipped="found $ngpu GPUs (nvidia-smi -L), need 2"
elif ! "$G" reduce "$T/a.txt" --gpus 2 >"$T/out" 2>"$T/err" && nccl_missing; then
  skipped="NCCL is not available: $(cat "$T/err")"
else
  for f in u32 dup f32 f32fin f64 sorted one empty; do
    gs=2
    [ "$f" = u32 ] && gs="2 all"
    for order in "" --desc; do
      "$G" sort "$T/$f.npy" "$T/ref.npy" $order 2>"$T/err" || bad "sort $f $order: $(cat "$T/err")"
      for g in $gs; do
        rm -f "$T/got.npy"
        if "$G" sort "$T/$f.npy" "$T/got.npy" $order --gpus "$g" 2>"$T/err" &&
           cmp -s "$T/ref.npy" "$T/got.npy"; then ok
        else bad "sort $f $order --gpus $g differs from one GPU: $(cat "$T/err")"; fi
      done
    done
    for op in sum min max; do
      [ "$f" = empty ] && [ "$op" != sum ] && continue
      ref=$("$G" reduce "$T/$f.npy" --op $op 2>"$T/err") || bad "reduce $f $op: $(cat "$T/err")"
      for g in $gs; do
        if got=$("$G" reduce "$T/$f.npy" --op $op --gpus "$g" 2>"$T/err") && [ "$got" = "$ref" ]
        then ok
        else bad "reduce $f --op $op --gpus $g: '$got', one GPU '$ref': $(cat "$T/err")"; fi
      done
    done
  done
  expect_rc 1 "over 2 GPUs failed" reduce "$T/empty.npy" --op min --gpus 2
  expect_rc 1 "asked for" sort "$T/a.txt" "$T/x.txt" --gpus 4096

  # two processes as a launcher starts them: each rank's file is its shard; the ranks'
  # outputs, concatenated, are one GPU's sort of the concatenation; every rank prints the
  # one-GPU sum of it
  python3 - "$T" <<'PY'
import struct, sys
d = sys.argv[1]
def load(p):
    b = open(p, 'rb').read()
    hl = struct.unpack('<H', b[8:10])[0]
    return b[10:10 + hl], b[10 + hl:]
for name, es in (('u32', 4), ('f32', 4), ('dup', 8)):
    h, body = load(d + '/%s.npy' % name)
    n = len(body) // es
    cut = n // 3 * es  # uneven shards
    for r, part in enumerate((body[:cut], body[cut:])):
        hh = h.decode('latin1').replace('(%d,)' % n, '(%d,)' % (len(part) // es))
        hh = hh.rstrip('\n').rstrip(' ')
        pad = (64 - (10 + len(hh) + 1) % 64) % 64
        hh = hh + ' ' * pad + '\n'
        with open(d + '/%s_r%d.npy' % (name, r), 'wb') as f:
            f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hh)) + hh.encode('latin1') + part)
PY
  body() { python3 -c "import sys,struct; b=open(sys.argv[1],'rb').read(); sys.stdout.buffer.write(b[10+struct.unpack('<H',b[8:10])[0]:])" "$1"; }
  for f in u32 f32 dup; do
    for order in "" --desc; do
      "$G" sort "$T/$f.npy" "$T/ref.npy" $order 2>"$T/err" || bad "sort $f: $(cat "$T/err")"
      rm -f "$T/id" "$T"/got_r*.npy
      for r in 0 1; do
        RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r GPUPRIMS_DIST_TIMEOUT=60 timeout 120 \
          "$G" sort "$T/${f}_r$r.npy" "$T/got_r$r.npy" $order --dist-file "$T/id" 2>"$T/err_r$r" &
      done
      wait
      if [ -s "$T/got_r0.npy" ] && [ -s "$T/got_r1.npy" ] &&
         cmp -s <(body "$T/ref.npy") <(cat <(body "$T/got_r0.npy") <(body "$T/got_r1.npy")); then ok
      else bad "sort $f $order --dist-file over 2 ranks differs from one GPU: $(cat "$T"/err_r*)"; fi
      if [ ! -e "$T/id" ]; then ok; else bad "rank 0 left the id file behind"; fi
    done
    ref=$("$G" reduce "$T/$f.npy" 2>"$T/err") || bad "reduce $f: $(cat "$T/err")"
    rm -f "$T/id"
    for r in 0 1; do
      RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r GPUPRIMS_DIST_TIMEOUT=60 timeout 120 \
        "$G" reduce "$T/${f}_r$r.npy" --dist-file "$T/id" >"$T/sum_r$r" 2>"$T/err_r$r" &
    done
    wait
    if [ "$(cat "$T/sum_r0")" = "$ref" ] && [ "$(cat "$T/sum_r1")" = "$ref" ]; then ok
    else bad "reduce $f --dist-file: '$(cat "$T/sum_r0")' '$(cat "$T/sum_r1")', one GPU '$ref': $(cat "$T"/err_r*)"; fi
  done
  # an id file left by an earlier run: rank 0 refuses it at once (rank 1 alone would wait)
  echo stale >"$T/id"
  RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 "$G" reduce "$T/u32_r0.npy" --dist-file "$T/id" >"$T/out" 2>"$T/err"
  rc=$?
  if [ $rc -eq 1 ] && grep -q "already exists" "$T/err"; then ok
  else bad "a stale id file: rc=$rc, $(cat "$T/err")"; fi
fi

echo "cli_gpus: $pass passed, $fail failed"
[ $fail -eq 0 ] || exit 1
if [ -n "$skipped" ]; then
  echo "cli_gpus: SKIPPED the comparisons with one GPU: $skipped"
  exit 77
fi
exit 0

#!/usr/bin/env bash
# Issue 11 from the command line: outputs that never lose data (File too large, symlinks,
# pipes, '-'), bad input answered with a message and a non-zero exit (or a documented
# warning), every --help stating exit codes and size suffixes, and Ctrl-C. CPU backend.
# Args: path to gpuprims, repo root.
set -u
G="$1"
fail=0
err() { echo "FAILED: $*" >&2; fail=1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# expect RC NEEDLE args...: exit status RC and NEEDLE in stderr
expect() {
  local want=$1 needle=$2
  shift 2
  "$G" "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" = "$want" ] || err "gpuprims $* exited $rc, expected $want: $(cat "$T/err")"
  grep -qF -- "$needle" "$T/err" || err "gpuprims $*: stderr lacks '$needle': $(cat "$T/err")"
}
no_tmp_left() { ! ls -a "$1" | grep -q '\.gp-tmp-' || err "temporary file left in $1: $(ls -a "$1")"; }

# ---- 1. outputs -------------------------------------------------------------------
seq 30000 | sort -R >"$T/a.txt"
"$G" sort "$T/a.txt" "$T/a.npy" --dtype u64 --backend cpu --desc || err "make a.npy"
cp "$T/a.npy" "$T/same.npy"
cp "$T/a.npy" "$T/orig.npy"
# the issue's reproduction: the write fails half way and the input is still there
(trap '' XFSZ; ulimit -f 100; "$G" sort "$T/same.npy" "$T/same.npy" --backend cpu) 2>"$T/err"
rc=$?
[ "$rc" = 1 ] || err "sort over ulimit -f: exit $rc, expected 1"
grep -q "File too large" "$T/err" || err "sort over ulimit -f: $(cat "$T/err")"
cmp -s "$T/same.npy" "$T/orig.npy" || err "sort over ulimit -f changed or removed its input"
no_tmp_left "$T"
# without the shell's trap too: the command itself turns SIGXFSZ into an error
(ulimit -f 100; "$G" sort "$T/same.npy" "$T/same.npy" --backend cpu) 2>"$T/err"
[ $? = 1 ] && cmp -s "$T/same.npy" "$T/orig.npy" || err "SIGXFSZ not handled: $(cat "$T/err")"
# in place when it fits
"$G" sort "$T/same.npy" "$T/same.npy" --backend cpu || err "sort in place"
"$G" sort "$T/a.txt" "$T/asc.npy" --dtype u64 --backend cpu || err "sort ascending"
cmp -s "$T/same.npy" "$T/asc.npy" || err "in-place sort differs from a sort to a new file"
# a symlink stays a link; its target gets the output
cp "$T/orig.npy" "$T/target.npy"
ln -s target.npy "$T/link.npy"
"$G" sort "$T/orig.npy" "$T/link.npy" --backend cpu || err "sort into a symlink"
[ -L "$T/link.npy" ] || err "the symlink output was replaced by a file"
cmp -s "$T/target.npy" "$T/asc.npy" || err "the symlink's target does not hold the output"
(trap '' XFSZ; ulimit -f 100; "$G" sort "$T/orig.npy" "$T/link.npy" --backend cpu) 2>/dev/null
[ -L "$T/link.npy" ] && cmp -s "$T/target.npy" "$T/asc.npy" || err "failed write through a link"
no_tmp_left "$T"
# '-' is stdout (and stdin)
printf '3\n1\n2\n' | "$G" sort - - --format text --out-format text --dtype i32 --backend cpu >"$T/o.txt" ||
  err "sort - -"
[ "$(tr '\n' ' ' <"$T/o.txt")" = "1 2 3 " ] || err "sort - -: $(cat "$T/o.txt")"
# a pipe whose reader leaves: an error, and the FIFO is still a FIFO
mkfifo "$T/fifo"
head -c 10 <"$T/fifo" >/dev/null &
"$G" sort "$T/a.txt" "$T/fifo" --dtype u64 --out-format text --backend cpu 2>"$T/err"
rc=$?
wait
[ "$rc" = 1 ] && grep -q "Broken pipe" "$T/err" || err "closed pipe: exit $rc: $(cat "$T/err")"
[ -p "$T/fifo" ] || err "the FIFO output was removed or replaced"
"$G" sort "$T/a.txt" - --dtype u64 --out-format text --backend cpu 2>"$T/err" | head -c 10 >/dev/null
[ "${PIPESTATUS[0]}" = 1 ] || err "'-' into a closed pipe: exit ${PIPESTATUS[0]}"

# ---- 2. bad input: a message and an exit status, or a documented warning ----------------
expect 2 "interval end 'inf' is not finite" integrate x 0 inf --backend cpu
expect 2 "interval end 'nan' is not finite" integrate x 0 nan --backend cpu
expect 1 "the trapezoid sum overflows" integrate x 0 1e308 --backend cpu
expect 2 "outside the range of f32" integrate x 0 1e300 --precision f32 --backend cpu
expect 1 "f(x) is infinite at the node x = 0" integrate 1/x -1 1 -n 2 --backend cpu
expect 0 "warning: the bound 1e-50 rounds to 0 in f32" integrate x 1e-50 2e-50 --precision f32 --backend cpu
expect 0 "warning: h = " integrate x 1e6 1e6+1 -n 2^24 --precision f32 --backend cpu
[ "$("$G" integrate '-x^2' 0 1 --backend cpu)" = "$("$G" integrate --backend cpu -- '-x^2' 0 1)" ] ||
  err "integrate '-x^2' and -- '-x^2' differ"
"$G" integrate '-x^2' 0 1 --backend cpu | grep -q '^-0.333' || err "integrate '-x^2'"
expect 2 "unknown option '-q'" integrate -q 0 1
# a .npy stream is checked as a file is
: >"$T/empty.txt"
"$G" sort "$T/empty.txt" "$T/extra.npy" --dtype f64 --backend cpu || err "empty .npy"
printf '12345678' >>"$T/extra.npy"
expect 1 "extra bytes after the array" reduce "$T/extra.npy" --backend cpu
cat "$T/extra.npy" | "$G" reduce /dev/stdin --format npy --backend cpu >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "extra bytes after the array" "$T/err" || err "npy stream: $(cat "$T/err")"
cat "$T/extra.npy" | "$G" reduce - --format npy --backend cpu >/dev/null 2>&1 && err "npy from '-' accepted"
# text: a BOM, a csv row, offsets and escaped bytes in messages
printf '\xef\xbb\xbf1,2,3\n4 5\n' >"$T/bom.csv"
[ "$("$G" reduce "$T/bom.csv" --dtype i64 --backend cpu)" = 15 ] || err "BOM + csv rows"
printf '1\n\xef\xbb\xbf2\n' >"$T/bom2.txt"
expect 1 "line 2, byte 2: '\\xef\\xbb\\xbf2' is not a number" reduce "$T/bom2.txt" --backend cpu
printf '0x10\n-0\n' >"$T/hex.txt"
[ "$("$G" reduce "$T/hex.txt" --dtype u32 --backend cpu)" = 16 ] || err "0x10 and -0 as u32"
printf '1e-400\n' >"$T/under.txt"
expect 1 "'1e-400' underflows to 0 in f64" reduce "$T/under.txt" --backend cpu
# usage errors say what is wrong
printf '1\n' >"$T/one.txt"
expect 2 "unknown option '-d'" sort "$T/one.txt" "$T/x.txt" -d
expect 2 "--n must be at least 1" model span --n 0 --blocks 4 --block 32
"$G" model divergence --algo two-phase --block 64 | grep -q "^  phase  part" || err "model table header"
"$G" model divergence --algo two-phase --block 64 --json | grep -q '"kernel": 1, "phase": 2' ||
  err "model json phase"
if "$G" bench reduce --help 2>&1 | grep -q "the benchmark suites were not built"; then
  echo "cli_robust: the benchmark suites are not built here; their --json check is not run"
else
  expect 1 "cannot write in the folder '/nonexistent-gpuprims'" bench reduce --json /nonexistent-gpuprims/x.json
fi
out=$("$G" info --no-measure 2>&1)
case "$out" in
  *"backend:        cuda"*) ;;
  *"no NVIDIA driver or GPU found"* | *"no NVIDIA GPU found"* | *"older than this build"* | \
  *"this build has no CUDA backend"*) ;;
  *) err "info without a GPU does not say why: $out" ;;
esac
# every --help: exit codes and the size suffixes
for c in "" reduce sort integrate model info bench; do
  h=$("$G" $c --help 2>&1)
  case "$h" in *"exit status"*"130 interrupted"*) ;; *) err "gpuprims $c --help: no exit codes" ;; esac
  case "$h" in *"16M = 2^24"*) ;; *) err "gpuprims $c --help: no size suffixes" ;; esac
done

# ---- Ctrl-C: a long CPU integration stops at once with 130 --------------------------
"$G" integrate 'sin(x)' 0 1 -n 2^40 --backend cpu >/dev/null 2>"$T/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 130 ] && grep -q interrupted "$T/err" || err "Ctrl-C: exit $rc: $(cat "$T/err")"
# progress on a terminal (script gives the command one): a run estimated at over 2 s
# shows it within a second; a machine fast enough to finish first prints the value
if command -v script >/dev/null && command -v timeout >/dev/null; then
  timeout 3 script -qec "$G integrate 'sin(x)' 0 1 -n 2^31 --backend cpu" /dev/null >"$T/tty" 2>&1
  grep -q "integrating: .* estimated" "$T/tty" || grep -q '^0.45969' "$T/tty" ||
    err "no progress on a terminal: $(tr '\r' '\n' <"$T/tty" | tail -3)"
fi

[ $fail = 0 ] && echo "cli_robust: ok"
exit $fail

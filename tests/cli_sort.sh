#!/usr/bin/env bash
# gpuprims sort on the CPU backend: text, raw and .npy files, ascending/descending,
# segments, the seed algorithm, special floats, and exit codes (0 ok, 1 runtime
# failure with the input untouched, 2 usage errors). Args: path to gpuprims, repo root.
set -u
G="$1"
fail=0
err() { echo "FAILED: $*" >&2; fail=1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

expect_rc() { # expected-rc command...
  local want=$1; shift
  "$@" >/dev/null 2>"$T/err"
  local rc=$?
  [ "$rc" = "$want" ] || err "'$*' exited $rc, expected $want: $(cat "$T/err")"
}

"$G" sort --help | grep -q "usage: gpuprims sort" || err "--help"

# text, integers, with duplicates and negatives
printf '5\n-3\n10\n0\n-3\n7\n' >"$T/a.txt"
"$G" sort "$T/a.txt" "$T/b.txt" --dtype i64 --backend cpu || err "sort text"
[ "$(tr '\n' ' ' <"$T/b.txt")" = "-3 -3 0 5 7 10 " ] || err "text ascending: $(cat "$T/b.txt")"
"$G" sort "$T/a.txt" "$T/c.txt" --dtype i32 --desc --backend cpu --algo bitonic-seed || err "desc seed"
[ "$(tr '\n' ' ' <"$T/c.txt")" = "10 7 5 0 -3 -3 " ] || err "text descending: $(cat "$T/c.txt")"

# -v: the steps' times on stderr, the output unchanged
"$G" sort "$T/a.txt" "$T/v.txt" --dtype i64 --backend cpu -v 2>"$T/v.err" || err "sort -v"
[ "$(tr '\n' ' ' <"$T/v.txt")" = "-3 -3 0 5 7 10 " ] || err "-v output: $(cat "$T/v.txt")"
grep -q "6 keys: read .* s, .*sort .* s (cpu), write .* s" "$T/v.err" || err "-v: $(cat "$T/v.err")"

# --progress: the steps on stderr (on one line: carriage returns), then a cleared line
"$G" sort "$T/a.txt" "$T/w.txt" --dtype i64 --backend cpu --progress 2>"$T/w.err" || err "sort --progress"
[ "$(tr '\n' ' ' <"$T/w.txt")" = "-3 -3 0 5 7 10 " ] || err "--progress output: $(cat "$T/w.txt")"
for s in "reading $T/a.txt" "sorting 6 keys (cpu)" "writing $T/w.txt"; do
  tr '\r' '\n' <"$T/w.err" | grep -q "gpuprims sort: $s \.\.\." || err "--progress: no '$s' in: $(tr '\r' '|' <"$T/w.err")"
done
# not a terminal, a small file: no progress unless asked
"$G" sort "$T/a.txt" "$T/w.txt" --dtype i64 --backend cpu 2>"$T/w.err" || err "sort (quiet)"
[ ! -s "$T/w.err" ] || err "progress without --progress on a pipe: $(cat "$T/w.err")"

# floats in the total order: -nan < -inf < -1 < -0 < 0 < 1 < inf < nan
printf 'nan\n1\n-0\ninf\n-inf\n0\n-1\n-nan\n' >"$T/f.txt"
"$G" sort "$T/f.txt" "$T/g.txt" --dtype f64 --backend cpu || err "sort floats"
got=$(tr '\n' ' ' <"$T/g.txt" | tr 'A-Z' 'a-z')
case "$got" in
  -nan*-inf*-1*-0*" 0 "*1*inf*nan*) ;;
  *) err "float total order: $got" ;;
esac

# --argsort: the stable permutation (u64 indices); equal keys keep their input order
"$G" sort "$T/a.txt" "$T/p.txt" --dtype i64 --argsort --backend cpu || err "argsort"
[ "$(tr '\n' ' ' <"$T/p.txt")" = "1 4 3 0 5 2 " ] || err "argsort: $(cat "$T/p.txt")"
"$G" sort "$T/a.txt" "$T/q.txt" --dtype i64 --argsort --desc --backend cpu || err "argsort desc"
[ "$(tr '\n' ' ' <"$T/q.txt")" = "2 5 0 3 1 4 " ] || err "argsort desc: $(cat "$T/q.txt")"
expect_rc 2 "$G" sort "$T/a.txt" "$T/q.txt" --dtype i64 --argsort --segment 3
"$G" sort "$T/a.txt" "$T/r.txt" --dtype i64 --algo radix --backend cpu || err "radix"
[ "$(tr '\n' ' ' <"$T/r.txt")" = "-3 -3 0 5 7 10 " ] || err "radix: $(cat "$T/r.txt")"

# segments of 3 (text)
printf '3\n2\n1\n9\n8\n7\n6\n5\n4\n' >"$T/s.txt"
"$G" sort "$T/s.txt" "$T/t.txt" --dtype u32 --segment 3 --backend cpu || err "segments"
[ "$(tr '\n' ' ' <"$T/t.txt")" = "1 2 3 7 8 9 4 5 6 " ] || err "segments: $(cat "$T/t.txt")"

# a raw file: the output is the input's keys in order (checked with python if present)
if command -v python3 >/dev/null; then
  python3 - "$T" <<'PY' || err "python raw/npy check"
import os, random, struct, sys
t = sys.argv[1]
random.seed(5)
vals = [random.randint(0, 2**32 - 1) for _ in range(10001)]
open(os.path.join(t, "r.bin"), "wb").write(struct.pack("<%dI" % len(vals), *vals))
PY
  "$G" sort "$T/r.bin" "$T/r.out" --dtype u32 --backend cpu || err "raw sort"
  python3 - "$T" <<'PY' || err "raw result is not the sorted input"
import os, struct, sys
t = sys.argv[1]
a = open(os.path.join(t, "r.bin"), "rb").read()
b = open(os.path.join(t, "r.out"), "rb").read()
x = struct.unpack("<%dI" % (len(a) // 4), a)
y = struct.unpack("<%dI" % (len(b) // 4), b)
sys.exit(0 if list(y) == sorted(x) else 1)
PY
  # .npy in, .npy out (f32, descending), header kept valid
  python3 - "$T" <<'PY' || err "npy setup"
import os, struct, sys
t = sys.argv[1]
vals = [3.5, -1.0, 2.25, 0.0, -7.5, 100.0, 1e-3]
hdr = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(vals)
hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
with open(os.path.join(t, "v.npy"), "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
    f.write(struct.pack("<%df" % len(vals), *vals))
PY
  "$G" sort "$T/v.npy" "$T/w.npy" --desc --backend cpu || err "npy sort"
  python3 - "$T" <<'PY' || err "npy result"
import os, struct, sys
t = sys.argv[1]
d = open(os.path.join(t, "w.npy"), "rb").read()
assert d[:6] == b"\x93NUMPY"
hl = struct.unpack("<H", d[8:10])[0] if d[6] == 1 else struct.unpack("<I", d[8:12])[0]
off = (10 if d[6] == 1 else 12) + hl
assert b"<f4" in d[:off]
v = struct.unpack("<%df" % ((len(d) - off) // 4), d[off:])
want = sorted([3.5, -1.0, 2.25, 0.0, -7.5, 100.0, 1e-3], reverse=True)
sys.exit(0 if [round(x, 3) for x in v] == [round(x, 3) for x in want] else 1)
PY
fi

# runtime failure: n not a multiple of the segment size; exit 1, message names both
expect_rc 1 "$G" sort "$T/a.txt" "$T/bad.txt" --dtype i64 --segment 4 --backend cpu
grep -q "n = 6" "$T/err" && grep -q "segment_size = 4" "$T/err" || err "segment message: $(cat "$T/err")"
[ ! -e "$T/bad.txt" ] || err "a failed sort wrote its output"
expect_rc 1 "$G" sort "$T/missing.txt" "$T/x.txt" --dtype i64 --backend cpu

# usage errors
expect_rc 2 "$G" sort "$T/a.txt"
expect_rc 2 "$G" sort "$T/a.txt" "$T/x.txt" --algo quick
expect_rc 2 "$G" sort "$T/a.txt" "$T/x.txt" --segment 0
expect_rc 2 "$G" sort "$T/a.txt" "$T/x.txt" --segment
expect_rc 2 "$G" sort "$T/a.txt" "$T/x.txt" --frobnicate
expect_rc 2 "$G" sort "$T/a.txt" "$T/x.txt" --backend tpu
expect_rc 2 "$G" sort "$T/a.txt" "$T/x.txt" "$T/y.txt"

exit $fail

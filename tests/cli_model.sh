#!/usr/bin/env bash
# gpuprims model: the chapter's 256-thread tables appear exactly as seed 000 prints them,
# the span figures (15, 19), JSON output, and exit codes (0 ok, 2 usage errors).
# Args: path to gpuprims, repo root.
set -u
G="$1"
fail=0
err() { echo "FAILED: $*" >&2; fail=1; }

expect_rc() { # expected-rc command...
  local want=$1; shift
  "$@" >/dev/null 2>/tmp/cli_model_err.$$
  local rc=$?
  [ "$rc" = "$want" ] || err "'$*' exited $rc, expected $want: $(cat /tmp/cli_model_err.$$)"
}

# seed 000 4.1, printed with the chapter's own format ("%-8d %-16lld %-10d")
out=$("$G" model divergence --algo interleaved --block 256) || err "interleaved failed"
want_i=$(cat <<'T'
step_s   active_threads   issue_passes
1        128              16        
2        64               16        
4        32               16        
8        16               16        
16       8                16        
32       4                8         
64       2                4         
128      1                2         

total issue-passes across all 8 steps (interleaved addressing): 94
T
)
case "$out" in *"$want_i"*) ;; *) err "interleaved table differs from the chapter:"; echo "$out" >&2 ;; esac

out=$("$G" model divergence --algo sequential --block 256) || err "sequential failed"
want_s=$(cat <<'T'
step_s   active_threads   issue_passes
128      128              4         
64       64               2         
32       32               1         
16       16               2         
8        8                2         
4        4                2         
2        2                2         
1        1                2         

total issue-passes across all 8 steps (sequential addressing): 17
sequential addressing's reduction in issue-passes: 94 -> 17 (5.53x fewer)
T
)
case "$out" in *"$want_s"*) ;; *) err "sequential table differs from the chapter:"; echo "$out" >&2 ;; esac

# 128 threads: 7 steps (self-check 1)
"$G" model divergence --algo interleaved --block 128 | grep -q "across all 7 steps (interleaved addressing): 46" \
  || err "128-thread interleaved total"

# span: 8 + 1 + 6 = 15 and self-check 6's 8 + 1 + 10 = 19
"$G" model span --n 100000 --blocks 64 --block 256 --design chapter | grep -q "8 + 1 + 6 = 15" || err "span 15"
"$G" model span --n 2^20 --blocks 1024 --block 256 --design chapter | grep -q "8 + 1 + 10 = 19" || err "span 19"
"$G" model span --n 2^20 --blocks 1024 --block 256 --design seed | grep -q "WRONG SUM" || err "seed phase 2 drop"

# banks: the strided reduce1 variant is 8-way at worst, sequential conflict-free
"$G" model banks --algo interleaved-strided --block 256 | grep -q "degree 8 (8-way conflict)" || err "strided 8-way"
"$G" model banks --algo sequential --block 256 | grep -q "degree 1 (conflict-free)" || err "sequential banks"
"$G" model banks --stride 32 --block 32 | grep -q "warp 0: degree 32" || err "stride 32"

# JSON parses and carries the figures the ncu script reads
if command -v python3 >/dev/null; then
  "$G" model divergence --algo interleaved --block 256 --json \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["table"]["issue_passes"]==94, d' \
    || err "divergence json"
  "$G" model banks --algo interleaved-strided --block 256 --json \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["total"]["max_degree"]==8, d' \
    || err "banks json"
  "$G" model span --n 100000 --blocks 64 --block 256 --json \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["designs"][0]["span_levels"]==15, d' \
    || err "span json"
fi

# exit codes
expect_rc 0 "$G" model --help
expect_rc 0 "$G" model divergence --help
expect_rc 2 "$G" model
expect_rc 2 "$G" model bogus
expect_rc 2 "$G" model divergence --block 256
expect_rc 2 "$G" model divergence --algo nope --block 256
expect_rc 2 "$G" model divergence --algo sequential --block 300
expect_rc 2 "$G" model divergence --algo sequential --block 2048
expect_rc 2 "$G" model divergence --algo sequential --block 256 --warp 3
expect_rc 2 "$G" model divergence --algo sequential --block abc
expect_rc 2 "$G" model divergence --algo sequential --block 256 --frobnicate 1
expect_rc 2 "$G" model banks --block 256
expect_rc 2 "$G" model banks --algo sequential --stride 2 --block 256
expect_rc 2 "$G" model banks --stride 2 --block 256 --bank-bytes 6
expect_rc 2 "$G" model span --n 100 --blocks 4
expect_rc 2 "$G" model span --n 0 --blocks 4 --block 256
expect_rc 2 "$G" model span --n 100 --blocks 4 --block 256 --design nope
rm -f /tmp/cli_model_err.$$
exit $fail

#!/usr/bin/env bash
# gpuprims integrate on the CPU backend: values against closed forms, interval ends as
# constant expressions, and the exit status and message of each kind of bad input.
set -u
G=$1
pass=0 fail=0
# ok NAME COMMAND...: COMMAND's exit status is the check
ok() { local name=$1; shift; if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $name"; fi; }
# usage_error RC MESSAGE NEEDLE: exit status 2 and the message mentions NEEDLE
usage_error() { [ "$1" -eq 2 ] && [[ "$2" == *"$3"* ]]; }
near() { python3 -c "import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= t else 1)" "$@"; }

out=$("$G" integrate 'x^2' 0 3 -n 1000 --backend cpu)
# trapezoid of x^2: exactly 9 + (b - a) h^2 / 6 with h = 3/1000
ok "x^2 over [0,3]" near "$out" 9.0000045 1e-12
out=$("$G" integrate 'sin(x)' 0 pi -n 2^20 --backend cpu)
ok "sin over [0,pi] with pi as a bound" near "$out" 2 1e-10
out=$("$G" integrate 'sin(x)' -pi 0 -n 2^20 --backend cpu)
ok "-pi is a bound, not an option" near "$out" -2 1e-10
out=$("$G" integrate '1/(1+x^2)' 0 1 -n 2^16 --backend cpu)
ok "atan: 1/(1+x^2) over [0,1] is pi/4" near "$out" 0.7853981633974483 1e-9
out=$("$G" integrate 'exp(x)' 1 0 -n 2^16 --backend cpu)
ok "b < a gives the negative integral" near "$out" -1.718281828459045 1e-9

err=$("$G" integrate 'x^2' 0 'x+1' --backend cpu 2>&1); rc=$?
ok "a bound using x is a usage error" usage_error $rc "$err" "not a finite constant"
err=$("$G" integrate 'sin(x))' 0 1 --backend cpu 2>&1); rc=$?
ok "a syntax error names the column" usage_error $rc "$err" "column 7"
err=$("$G" integrate 'foo(x)' 0 1 --backend cpu 2>&1); rc=$?
ok "an unknown name is named" usage_error $rc "$err" "'foo'"
err=$("$G" integrate 'x' 0 1 -n 0 --backend cpu 2>&1); rc=$?
ok "n = 0 is refused" [ $rc -ne 0 ]
err=$("$G" integrate '1/x' -1 1 -n 2 --backend cpu 2>&1); rc=$?
ok "a non-finite result is reported" [ $rc -eq 1 -a -n "$err" ]
"$G" integrate --help >/dev/null; rc=$?
ok "--help exits 0" [ $rc -eq 0 ]
"$G" integrate 'x' 0 1 --bogus >/dev/null 2>&1; rc=$?
ok "an unknown option exits 2" [ $rc -eq 2 ]
echo "cli_integrate: $pass passed, $fail failed"
[ $fail -eq 0 ]

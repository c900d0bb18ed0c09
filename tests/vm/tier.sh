#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel lab tier (`make check-lab`, tests/all-tests.sh): one boot of
# Debian 12's kernel (tests/vm/lab.sh) runs, in the guest, the kernel tier
# (tests/kernel/*.sh) and the lab's own tests (tests/vm/guest/*.sh), and
# this prints one automake-style line per test:
#
#     PASS: tests/vm/lab tests/kernel/netns.sh (38 s)
#     SKIP: tests/vm/lab tests/vm/guest/x.sh: REASON
#     FAIL: tests/vm/lab tests/kernel/y.sh (log: DIR/logs/...)
#
# then the "# TOTAL/PASS/SKIP/FAIL" block.  Logs stay in $LAB_RESULTS
# (default: tests/vm/out in the build directory): console.log of the boot,
# logs/ of each test, results, guest-info.  Exit 0 when every test passed
# or skipped, 1 when one failed, 77 (and one SKIP line with the reason)
# when this machine cannot run the lab.  Tests named as arguments run
# instead of the whole list (paths relative to the source tree).
#
# The tests run in two lanes (the guest's two vCPUs), balanced on the
# durations of the previous run; the monitor tests share a lane, as they
# read the kernel log the others could write to.
#
# Then, on this host, the checks of what the guest left behind
# (tests/vm/host/*.sh, with $LAB_ARTIFACTS the guest's $LAB_OUT/artifacts):
# a snapshot taken on the lab's kernel replayed here, say.  They are lines
# of the same tier ("PASS: tests/vm/lab tests/vm/host/x.sh"); named as
# arguments, only those run.
set -u
TOP_SRCDIR=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
TOP_BUILDDIR=${TOP_BUILDDIR:-$TOP_SRCDIR/build}
MLXCLI=${MLXCLI:-$TOP_BUILDDIR/mlxcli}
MLXCLI_REAL=${MLXCLI_REAL:-$MLXCLI}
MLXCLI_SAMPLES_DIR=${MLXCLI_SAMPLES_DIR:-$TOP_SRCDIR/tests/data/samples}
FIXTURES=${FIXTURES:-$TOP_SRCDIR/../shared/fixtures}
out=${LAB_RESULTS:-$TOP_BUILDDIR/tests/vm/out}
me=tests/vm/lab

if [ $# -gt 0 ]; then
	tests=$(for t in "$@"; do echo "$t"; done | grep -v '^tests/vm/host/')
	host_tests=$(for t in "$@"; do echo "$t"; done | grep '^tests/vm/host/')
else
	tests=$(cd "$TOP_SRCDIR" && ls tests/kernel/*.sh tests/vm/guest/*.sh 2>/dev/null | grep -v '/lib\.sh$')
	host_tests=$(cd "$TOP_SRCDIR" && ls tests/vm/host/*.sh 2>/dev/null)
fi
[ -x "$MLXCLI" ] || { echo "FAIL: $me: no mlxcli at $MLXCLI (build first)"; exit 1; }

# The previous run's durations, then a fresh output directory.
prev=$(cat "$out/results" 2>/dev/null)
rm -rf "$out"
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)

# Lanes: longest first onto the lane with less work (unknown: 60 s).
lanes=$(for t in $tests; do
	s=$(echo "$prev" | awk -v t="$t" '$3 == t { print $2 }')
	case $t in */monitor-*) g=monitor ;; *) g=$t ;; esac
	echo "$g ${s:-60} $t"
done | awk '{ w[$1] += $2; m[$1] = m[$1] " " $3 } END { for (g in w) print w[g], m[g] }' |
	sort -rn | awk '{ l = (a <= b) ? 0 : 1; if (l) b += $1; else a += $1
		for (i = 2; i <= NF; i++) lane[l] = lane[l] " " $i }
		END { print lane[0] " --" lane[1] }')

env=$out/.env
{
	for v in MLXCLI MLXCLI_REAL MLXCLI_SAMPLES_DIR TOP_SRCDIR TOP_BUILDDIR FIXTURES; do
		eval "val=\$$v"
		printf "%s='%s'; export %s\n" "$v" "$(printf '%s' "$val" | sed "s/'/'\\\\''/g")" "$v"
	done
	# The CI flag reaches the guest's tests as it reaches the host's.
	[ -z "${CI:-}" ] || echo "CI='$CI'; export CI"
} >"$env"

start=$(date +%s)
# shellcheck disable=SC2086
LAB_QUIET=1 sh "$TOP_SRCDIR/tests/vm/lab.sh" run -o "$out" -e "$env" \
	"$TOP_SRCDIR/tests/vm/guest-run.sh" $lanes 2>"$out/lab.err"
rc=$?
total=$(($(date +%s) - start))
if [ "$rc" -eq 77 ]; then
	echo "SKIP: $me: $(sed -n 's/^lab: skip: //p' "$out/lab.err" | head -n 1)"
	exit 77
fi
if [ "$rc" -ne 0 ] || [ ! -f "$out/results" ]; then
	echo "FAIL: $me: the lab did not run its tests: $(tail -n 3 "$out/lab.err")"
	[ ! -f "$out/.lab/console.log" ] || { echo "# the console's last lines:"; tail -n 20 "$out/.lab/console.log"; }
fi

pass=0 fail=0 skip=0
for t in $tests; do
	line=$(awk -v t="$t" '$3 == t' "$out/results" 2>/dev/null | tail -n 1)
	log=$out/logs/$(echo "$t" | tr / _).log
	if [ -z "$line" ]; then
		echo "FAIL: $me $t: never ran (the VM ended first; see $out/.lab/console.log)"
		fail=$((fail + 1))
		continue
	fi
	set -- $line
	case $1 in
	0) echo "PASS: $me $t ($2 s)"; pass=$((pass + 1)) ;;
	77) echo "SKIP: $me $t: $(grep -m1 -E '^(# )?SKIP' "$log" | sed 's/^# //')"; skip=$((skip + 1)) ;;
	*)
		echo "FAIL: $me $t (exit $1, $2 s; log: $log)"
		grep -E '^FAIL' "$log" | head -n 10 | sed 's/^/#   /'
		fail=$((fail + 1)) ;;
	esac
done
# The host's checks of what the guest left.
mkdir -p "$out/logs"
for t in $host_tests; do
	log=$out/logs/$(echo "$t" | tr / _).log
	hs=$(date +%s)
	LAB_ARTIFACTS=$out/artifacts TOP_SRCDIR=$TOP_SRCDIR MLXCLI=$MLXCLI MLXCLI_REAL=$MLXCLI_REAL \
		MLXCLI_SAMPLES_DIR=$MLXCLI_SAMPLES_DIR sh "$TOP_SRCDIR/$t" >"$log" 2>&1 </dev/null
	hrc=$?
	case $hrc in
	0) echo "PASS: $me $t ($(($(date +%s) - hs)) s, on this host)"; pass=$((pass + 1)) ;;
	77) echo "SKIP: $me $t: $(grep -m1 -E '^(# )?SKIP' "$log" | sed 's/^# //')"; skip=$((skip + 1)) ;;
	*)
		echo "FAIL: $me $t (exit $hrc, on this host; log: $log)"
		grep -E '^FAIL' "$log" | head -n 10 | sed 's/^/#   /'
		fail=$((fail + 1)) ;;
	esac
done
echo "# kernel $(head -n 1 "$out/guest-info" 2>/dev/null | cut -d' ' -f2); booted in" \
	"$(cat "$out/.lab/boot-secs" 2>/dev/null)s; VM $(cat "$out/.lab/vm-secs" 2>/dev/null)s; tier ${total}s"
echo "# TOTAL: $((pass + fail + skip))"
echo "# PASS:  $pass"
echo "# SKIP:  $skip"
echo "# FAIL:  $fail"
[ "$fail" -eq 0 ] && [ "$rc" -eq 0 ]

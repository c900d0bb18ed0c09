#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's second command, and what CI runs (.ci/run): set up, build,
# then every test tier (`make check`: unit, cli, captured, kernel), again
# in an ASan+UBSan build, and `make distcheck`.
set -e
. "$(dirname "$0")/setup.sh"
LOGS=$(mktemp -d)
status=0

run_check() {   # $1 name, $2 build dir, $3.. configure flags
	name=$1 dir=$2
	shift 2
	echo "== $name"
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] || "$SRC/configure" -q "$@"; } &&
		make -s -j"$(nproc)" >/dev/null && make -s check) >"$LOGS/$name.log" 2>&1 || {
		status=1
		cat "$dir"/test-suite.log 2>/dev/null | tail -n 200
	}
	grep -E '^(# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR)|(PASS|FAIL|SKIP|ERROR|XPASS):)' \
		"$LOGS/$name.log" || tail -n 40 "$LOGS/$name.log"
}

run_check check "$BUILD"
run_check sanitizers "$SRC/build-asan" --enable-sanitizers

echo "== distcheck"
(cd "$BUILD" && make -s distcheck) >"$LOGS/distcheck.log" 2>&1 || { status=1; tail -n 60 "$LOGS/distcheck.log"; }
grep -E 'archives ready|ERROR|FAIL' "$LOGS/distcheck.log" | head -5

echo "== fault injection (every call of every write path failed in turn)"
(cd "$BUILD" && make -s check-faults) >"$LOGS/faults.log" 2>&1 || { status=1; tail -n 40 "$LOGS/faults.log"; }
grep -E '^(PASS|FAIL|SKIP|fault matrix):' "$LOGS/faults.log"

echo "== valgrind (cli tier under memcheck)"
(cd "$BUILD" && make -s check-valgrind) >"$LOGS/valgrind.log" 2>&1 || { status=1; tail -n 40 "$LOGS/valgrind.log"; }
grep -E '^valgrind:|^(FAIL|ERROR):' "$LOGS/valgrind.log"

echo "== bench (quick pass: the harness runs; no timing gates)"
(cd "$BUILD" && make -s bench BENCH_QUICK=1) || status=1

echo "== fuzz (short pass)"
(cd "$BUILD" && make -s fuzz FUZZ_TIME=10) || status=1

# One closing line over every tier and build, in the plain form.
pass=$(cat "$LOGS"/check.log "$LOGS"/sanitizers.log | sed -n 's/^# PASS: *//p' | awk '{s+=$1} END {print s+0}')
fail=$(cat "$LOGS"/check.log "$LOGS"/sanitizers.log | sed -n 's/^# \(FAIL\|ERROR\|XPASS\): *//p' | awk '{s+=$1} END {print s+0}')
skip=$(cat "$LOGS"/check.log "$LOGS"/sanitizers.log | sed -n 's/^# SKIP: *//p' | awk '{s+=$1} END {print s+0}')
[ "$status" -eq 0 ] || [ "$fail" -gt 0 ] || fail=1
rm -rf "$LOGS"
echo "$pass passed, $fail failed, $skip skipped"
exit $status

# SPDX-License-Identifier: GPL-2.0-or-later
# What the cli test scripts share; each sources it first:
#
#     . "$(dirname "$0")/lib.sh"
#
# It checks that MLXCLI names the binary under test, finds the sample
# hosts (MLXCLI_SAMPLES_DIR, else the source tree's), gives the test a
# private state directory (MLXCLI_STATE_DIR: sample working copies,
# history) and a scratch directory $tmp, both removed on exit, and defines
#
#     need TOOL...         exit 77 (skip) unless every TOOL is installed
#     ok TEXT / bad TEXT   report a check; bad makes the test fail
#     run NAME ARGS...     mlxcli ARGS: stdout in $tmp/NAME.out, stderr in
#                          $tmp/NAME.err, exit status in $rc
#     finish               print PASS or FAIL and exit 0 or 1
#
# A test with more to undo on exit sets on_exit to a command first.

: "${MLXCLI:?MLXCLI must name the binary under test}"
TOP_SRCDIR=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
MLXCLI_SAMPLES_DIR=${MLXCLI_SAMPLES_DIR:-$TOP_SRCDIR/tests/data/samples}
export MLXCLI_SAMPLES_DIR

need() {
	for t in "$@"; do
		if ! command -v "$t" >/dev/null 2>&1; then
			echo "SKIP: $t not installed"
			exit 77
		fi
	done
}

MLXCLI_STATE_DIR=$(mktemp -d) || exit 1
export MLXCLI_STATE_DIR
tmp=$(mktemp -d) || exit 1
on_exit=:
trap 'eval "$on_exit"; rm -rf "$MLXCLI_STATE_DIR" "$tmp"' EXIT
trap 'exit 130' INT TERM
fail=0

bad() {
	echo "FAIL: $*"
	fail=1
}

ok() {
	echo "  ok: $*"
}

run() {
	name=$1
	shift
	"$MLXCLI" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
}

finish() {
	if [ "$fail" -ne 0 ]; then
		echo "FAIL"
		exit 1
	fi
	echo "PASS"
	exit 0
}

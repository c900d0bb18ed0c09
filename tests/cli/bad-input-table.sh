#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The bad-input table (tests/cli/bad-input.table): every row is a bad
# command line or value across every command group, with its exit code and
# a fragment of the error.  Each run must exit with that code, print the
# fragment on the first stderr line in the error voice ("mlxcli: error: "),
# print nothing on stdout for usage errors (2, 3), and never die of a
# signal.  All rows run on a sample working copy (mlxcli --sample ARGS);
# none of them changes it (checked by a checksum).
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
TABLE=$TOP_SRCDIR/tests/cli/bad-input.table
[ -f "$TABLE" ] || { echo "SKIP: no $TABLE"; exit 77; }

MLXCLI_CONFIG=/nonexistent/mlxcli.conf
export MLXCLI_CONFIG
n=0
tab=$(printf '\t')

"$MLXCLI" --sample devices >/dev/null || { bad "no working copy"; exit 1; }
before=$(tree_sum "$MLXCLI_STATE_DIR" ! -name '*.lock')

while IFS="$tab" read -r want frag args; do
	case $want in '#'* | '') continue ;; esac
	n=$((n + 1))
	eval "set -- $args"
	"$MLXCLI" --sample "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	first=$(head -1 "$tmp/err")
	if [ "$rc" -ge 128 ]; then
		bad "mlxcli $args: killed by signal $((rc - 128))"
	elif [ "$rc" -ne "$want" ]; then
		bad "mlxcli $args: exit $rc, want $want: $first"
	elif [ "${first#mlxcli: error: }" = "$first" ]; then
		bad "mlxcli $args: the first stderr line is not an error: $first"
	elif ! printf '%s\n' "$first" | grep -F -q -e "$frag"; then
		bad "mlxcli $args: stderr lacks '$frag': $first"
	elif [ "$want" -ge 2 ] && [ -s "$tmp/out" ]; then
		bad "mlxcli $args: stdout not empty on exit $rc"
	fi
done <"$TABLE"
[ "$(tree_sum "$MLXCLI_STATE_DIR" ! -name '*.lock')" = "$before" ] || bad "a bad command line changed the working copy"
echo "bad-input table: $n command lines"
[ "$n" -ge 200 ] || bad "only $n rows (want at least 200)"
exit $fail

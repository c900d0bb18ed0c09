#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One exit-code contract (DESIGN.md "Errors and exit codes", mlxcli(8) EXIT
# STATUS), checked over every command of tests/cli/exit-codes.table; the
# command tables are walked (mlxcli __complete) and a command the table
# does not classify fails the test.  Situations:
#   - no ConnectX on the host (an empty --sysroot, and this machine's live
#     system when it has none): a read of every device exits 0, says "no
#     ConnectX device was found" on stderr and prints valid JSON under -j;
#   - -d naming nothing (on the empty host and on the sample): exit 3,
#     "no ConnectX device 'nosuch0'";
#   - a VF where a PF is needed: exit 4, "is a VF; give its PF";
#   - -j on a command without JSON: exit 2, nothing on stdout;
#   - --dry-run of a writing command: "(dry run: nothing was written)" on
#     the last stderr line, and "dry_run": true on top of its JSON;
#   - --version -j: a JSON object with version and schema_version; -p its
#     pretty form; >/dev/full exit 1 (the output layer's error).
# Bad values (2), not supported (4) and permission (5) are the bad-input
# table's and tests/cli/privilege.sh's.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need python3 jq
TABLE=$TOP_SRCDIR/tests/cli/exit-codes.table
tab=$(printf '\t')
MLXCLI_CONFIG=/nonexistent/mlxcli.conf
export MLXCLI_CONFIG
rows=0 checks=0

empty=$tmp/empty
mkdir -p "$empty/sys/bus/pci/devices" "$tmp/dmn"

# One JSON document, or JSON lines (counters watch)
isjson() {
	python3 -c 'import json,sys
t=sys.stdin.read()
try: json.loads(t)
except ValueError: [json.loads(l) for l in t.splitlines() if l.strip()]' <"$1" 2>/dev/null
}
# A top-level key of the JSON in $1 is true.
json_true() {
	python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin).get(sys.argv[1]) is True else 1)' \
		"$2" <"$1" 2>/dev/null
}

# mlxcli SYSTEM WORDS... (SYSTEM: --sample or --sysroot=DIR); sets $rc.
x() {
	checks=$((checks + 1))
	"$MLXCLI" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
expect() { # CODE WHAT FRAGMENT
	if [ "$rc" -ne "$1" ]; then
		bad "$2: exit $rc, want $1: $(head -1 "$tmp/err")"
	elif [ -n "$3" ] && ! grep -F -q -e "$3" "$tmp/err"; then
		bad "$2: stderr lacks '$3': $(head -1 "$tmp/err")"
	elif [ "$1" -ge 2 ] && [ -s "$tmp/out" ]; then
		bad "$2: stdout not empty on exit $1"
	fi
}

# The table's commands, and the walk of the command tables.
grep -v -e '^#' -e '^$' "$TABLE" | cut -f2 >"$tmp/paths"
walk() { # WORDS...: every word __complete offers after them
	"$MLXCLI" __complete "$@" "" 2>/dev/null | grep -v '^-' | while read -r w; do
		p="$* $w"; p=${p# }
		if grep -q -x -F -e "$p" "$tmp/paths"; then
			:
		elif ! grep -q -F -e "$p " "$tmp/paths"; then
			echo "$p"
			continue
		fi
		# a group (or a command that is a group too): its words
		grep -q -F -e "$p " "$tmp/paths" && walk $p
	done
}
walk >"$tmp/missing"
while read -r p; do
	bad "'mlxcli $p' is not in $TABLE: classify it"
done <"$tmp/missing"
while read -r p; do
	# shellcheck disable=SC2086
	"$MLXCLI" help $p >"$tmp/help" 2>&1 || bad "'$p' in the table is not a command"
	grep -q "^usage: mlxcli $p COMMAND" "$tmp/help" && bad "'$p' in the table is a group: list its commands"
done <"$tmp/paths"

live_has_cx=$("$MLXCLI" devices -j 2>/dev/null | grep -c '"pci_address"')

while IFS="$tab" read -r kinds path args; do
	case $kinds in '#'* | '') continue ;; esac
	rows=$((rows + 1))
	args=$(printf '%s' "$args" | sed "s#SNAPDIR#$tmp/snap#g; s#DMNDIR#$tmp/dmn#g; s#SRCDIR#$TOP_SRCDIR#g")
	# on DEV: $d (-d DEV, or empty) and $a (the arguments, DEV in place
	# of IFNAME); the caller sets "$@" from $a
	on() {
		case " $args " in
		*" IFNAME "*) d=; a=$(printf '%s' "$args" | sed "s/IFNAME/$1/") ;;
		*) d="-d $1"; a=$args ;;
		esac
	}
	on enp94s0f0np0; eval "set -- $a"
	# shellcheck disable=SC2086
	case ",$kinds," in *,nojson,*)
		x --sample -j $path "$@"
		expect 2 "mlxcli -j $path" "has no JSON output" ;;
	esac
	case ",$kinds," in *,all,*)
		for sys in "--sysroot=$empty" live; do
			[ $sys = live ] && [ "$live_has_cx" -gt 0 ] && continue
			s=$sys; [ $sys = live ] && s=
			# shellcheck disable=SC2086
			x $s $path "$@"
			expect 0 "mlxcli $sys $path" "no ConnectX device was found"
			# shellcheck disable=SC2086
			x -j $s $path "$@"
			expect 0 "mlxcli -j $sys $path" "no ConnectX device was found"
			[ "$rc" -eq 0 ] && ! isjson "$tmp/out" && bad "mlxcli -j $sys $path: not JSON on stdout"
		done
		eval "set -- $args" ;;
	esac
	case ",$kinds," in *,dev,*)
		on nosuch0; eval "set -- $a"
		for sys in "--sysroot=$empty" --sample; do
			# shellcheck disable=SC2086
			x $sys $d $path "$@"
			expect 3 "mlxcli $sys -d nosuch0 $path" "no ConnectX device 'nosuch0'"
		done ;;
	esac
	case ",$kinds," in *,pf,*)
		on enp94s0f2; eval "set -- $a"
		# shellcheck disable=SC2086
		x --sample $d $path "$@"
		expect 4 "mlxcli -d VF $path" "0000:5e:00.2 (enp94s0f2) is a VF; give its PF 0000:5e:00.0" ;;
	esac
	case ",$kinds," in *,notsup,*)
		on enp94s0f0np0; eval "set -- $a"
		for dry in "" --dry-run; do
			# shellcheck disable=SC2086
			x --sample $d $path $dry "$@"
			expect 4 "mlxcli $path $dry" "not supported"
		done ;;
	esac
	case ",$kinds," in *,w,*)
		on enp94s0f0np0; eval "set -- $a"
		# shellcheck disable=SC2086
		x --sample $d $path --dry-run "$@"
		expect 0 "mlxcli $path --dry-run"
		last=$(tail -1 "$tmp/err")
		[ "$last" = "(dry run: nothing was written)" ] ||
			bad "mlxcli $path --dry-run: the last stderr line is '$last'"
		# shellcheck disable=SC2086
		x --sample -j $d $path --dry-run "$@"
		expect 0 "mlxcli -j $path --dry-run"
		json_true "$tmp/out" dry_run || bad "mlxcli -j $path --dry-run: no top-level \"dry_run\": true"
		;;
	esac
done <"$TABLE"

# --version -j is JSON: {"version": ..., "schema_version": ...}
x --version -j
expect 0 "mlxcli --version -j"
python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d.get("version") and "schema_version" in d else 1)' \
	<"$tmp/out" 2>/dev/null || bad "mlxcli --version -j: not a JSON object with version and schema_version: $(head -c 80 "$tmp/out")"
# ... written through the output layer, as every command's: the text, the
# JSON and the pretty JSON are what it writes, and an output that cannot
# be written is exit 1 with the error (issue 26: it was printed by hand,
# and `--version >/dev/full` exited 0)
x --version -p
check "mlxcli --version -p" "$(cat "$tmp/out")" "$(printf '{\n  "schema_version": %s,\n  "version": "%s"\n}' \
	"$(sed -n 's/^#define OUT_SCHEMA_VERSION \([0-9]*\)$/\1/p' "$TOP_SRCDIR/cmd/output.h")" \
	"$(jq -r .version "$tmp/out")")"
for j in "" -j; do
	# shellcheck disable=SC2086
	"$MLXCLI" --version $j >/dev/full 2>"$tmp/err"
	rc=$?
	expect 1 "mlxcli --version${j:+ $j} >/dev/full" "cannot write the output"
done

# mlxcli(8)'s EXIT STATUS lists the codes of cmd/cli.h's enum, each once.
codes_h=$(sed -n 's/^[[:space:]]*EXIT_[A-Z]* = \([0-9]\),.*/\1/p' "$TOP_SRCDIR/cmd/cli.h" | sort -n | tr '\n' ' ')
codes_man=$(sed -n '/^\.SH "*EXIT STATUS/,/^\.SH/p' "$TOP_SRCDIR/man/mlxcli.8" |
	sed -n 's/^\.B \([0-9]\)$/\1/p' | sort -n | tr '\n' ' ')
[ "$codes_h" = "$codes_man" ] || bad "mlxcli(8) EXIT STATUS lists '$codes_man', cmd/cli.h has '$codes_h'"
for m in "$TOP_SRCDIR"/man/mlxcli-*.8; do
	grep -q 'EXIT STATUS' "$m" || bad "$(basename "$m") has no EXIT STATUS section"
done

echo "exit-codes: $rows commands, $checks runs"
exit $fail

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The documentation against the tables.  Walking `mlxcli help` and `mlxcli
# help GROUP...` down to every command:
#   - `mlxcli help CMD` exits 0;
#   - the man page its usage names ("see mlxcli-X(8)") exists in man/ and
#     mentions the command in its SYNOPSIS or COMMANDS section; a command
#     or group whose last word has a page of its own (mlxcli-WORD(8))
#     names that one;
#   - `mlxcli __complete PARENT... ""` offers the command word;
#   - each option `mlxcli help CMD` lists is in that page's SYNOPSIS (for a
#     top-level command with a page of its own, mlxcli-CMD(8): that one's);
# and per page: each option of its SYNOPSIS is an option of one of its
# commands or a global one; `man --warnings -l` is silent.
set -u
. "$(dirname "$0")/lib.sh"
need man
T=$tmp
MAN=$TOP_SRCDIR/man
n=0

# The page as plain ASCII on one long line per paragraph.
render() {
	LC_ALL=C MANWIDTH=2000 man -l "$1" 2>/dev/null | col -bx
}
# The SYNOPSIS section of a rendered page.
synopsis() {
	sed -n '/^SYNOPSIS/,/^[A-Z]/p' "$1" | sed '$d'
}
# The words a group lists under "commands:" (its help on stdin).
commands() {
	sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\).*/\1/p'
}
# The local options a command's help lists, long form ("--dry-run").
local_opts() {
	sed -n '/^options:/,/^$/p' | grep -o -- '--[a-z][a-z0-9-]*' | sort -u
}

# Global options (they stand in every page's SYNOPSIS as they please).
"$MLXCLI" help | sed -n '/^global options/,/^$/p' | grep -o -- '--[a-z][a-z0-9-]*\|-[a-z]\b' |
	sort -u >"$T/global"

# walk PATH...: check one command or group and recurse.
walk() {
	n=$((n + 1))
	if ! "$MLXCLI" help "$@" >"$T/help" 2>"$T/err"; then
		bad "'mlxcli help $*' exits non-zero: $(cat "$T/err")"
		return
	fi
	page=$(sed -n 's/^see \(mlxcli[a-z0-9-]*\)(8)$/\1/p' "$T/help")
	# A command or group with a page of its own (man/mlxcli-WORD.8 for
	# its last word: devices, snapshot, dcqcn, ...) names that page.
	last=
	[ $# -gt 0 ] && last=$(eval "echo \${$#}")
	if [ -n "$last" ] && [ -f "$MAN/mlxcli-$last.8" ] && [ "$page" != "mlxcli-$last" ]; then
		bad "'mlxcli help $*' says see ${page:-nothing}(8), not its own page mlxcli-$last(8)"
	fi
	if [ -z "$page" ]; then
		bad "'mlxcli help $*' names no man page"
	elif [ ! -f "$MAN/$page.8" ]; then
		bad "'mlxcli help $*' names $page(8), which is not in man/"
	else
		[ -f "$T/$page.txt" ] || render "$MAN/$page.8" >"$T/$page.txt"
		last=$(eval "echo \${$#}")
		# mentioned where commands are listed: SYNOPSIS or COMMANDS
		sed -n '/^\(SYNOPSIS\|COMMANDS\)/,/^[A-Z]/p' "$T/$page.txt" >"$T/listed"
		if [ $# -gt 0 ] && ! grep -qw -- "$last" "$T/listed"; then
			bad "$page(8) SYNOPSIS or COMMANDS does not mention '$last' (mlxcli $*)"
		fi
		# Every top-level word is in mlxcli(8)'s COMMANDS too.
		[ -f "$T/mlxcli.txt" ] || render "$MAN/mlxcli.8" >"$T/mlxcli.txt"
		if [ $# -eq 1 ] && [ "$page" != mlxcli ] &&
		   ! sed -n '/^COMMANDS/,/^[A-Z]/p' "$T/mlxcli.txt" | grep -qw -- "$1"; then
			bad "mlxcli(8) COMMANDS does not mention '$1'"
		fi
		# A top-level command with a page of its own (mlxcli-fw(8)):
		# its options are documented there.
		if [ $# -eq 1 ] && [ -f "$MAN/mlxcli-$1.8" ]; then
			page=mlxcli-$1
			[ -f "$T/$page.txt" ] || render "$MAN/$page.8" >"$T/$page.txt"
		fi
		# the options of this command: in the page's SYNOPSIS
		synopsis "$T/$page.txt" >"$T/syn"
		local_opts <"$T/help" >"$T/opts"
		while read -r o; do
			grep -q -- "$o\\b" "$T/syn" || bad "$page(8) SYNOPSIS lacks '$o' of 'mlxcli $*'"
		done <"$T/opts"
		cat "$T/opts" >>"$T/$page.opts"
		# ... and may stand in its group's page too (dbg dump-me-now's
		# options in mlxcli-dbg(8) as in mlxcli-dump-me-now(8))
		[ ! -f "$T/ppage.$(($# - 1))" ] || cat "$T/opts" >>"$T/$(cat "$T/ppage.$(($# - 1))").opts"
	fi
	# completion offers the word
	if [ $# -gt 0 ]; then
		parent=$(eval "echo \${$#}")
		set -- "$@"
		cnt=$#
		i=0
		words=
		for w in "$@"; do
			i=$((i + 1))
			[ $i -lt $cnt ] && words="$words $w"
		done
		# shellcheck disable=SC2086
		if ! "$MLXCLI" __complete $words "" | grep -qx -- "$parent"; then
			bad "'mlxcli __complete$words \"\"' does not offer '$parent'"
		fi
	fi
	if grep -q '^commands:' "$T/help"; then
		commands <"$T/help" >"$T/sub.$n"
		echo "$page" >"$T/ppage.$#"
		while read -r w; do
			walk "$@" "$w"
		done <"$T/sub.$n"
	fi
}
walk

# Help for a sub-verb of a command that runs by itself too (a counters view,
# fw query, dump-me-now show), and synopses shown whole: a long one is
# wrapped, never cut ("ets ... [bw TC:PCT." was).
for cmd in "counters watch" "counters cc" "fw query" "pci show" "dump-me-now show" \
	   "sriov set numvfs"; do
	# shellcheck disable=SC2086
	"$MLXCLI" help $cmd >"$T/help" 2>"$T/err" || bad "'mlxcli help $cmd' exits non-zero: $(cat "$T/err")"
	grep -q "^usage: mlxcli $cmd" "$T/help" || bad "'mlxcli help $cmd' prints no usage of it"
done
"$MLXCLI" help qosconfig | tr -s ' \n' '  ' >"$T/help"
for syn in "ets [prio-tc P:TC...] [tsa TC:strict|ets|vendor...] [bw TC:PCT...]" \
	   "buffer [prio-buffer P:BUF...] [size BUF:BYTES...]" \
	   "dscp2prio set|del DSCP PRIO [DSCP PRIO...] | flush"; do
	grep -qF -- "$syn" "$T/help" || bad "'mlxcli help qosconfig' does not show '$syn' whole"
done
"$MLXCLI" help qosconfig | awk 'length > 79 && /^  [a-z]/ && !/   / { print }' >"$T/long"
[ -s "$T/long" ] && bad "'mlxcli help qosconfig' has synopsis lines over 79 columns: $(cat "$T/long")"

# Per page: SYNOPSIS options exist; man is silent.
for f in "$MAN"/*.8; do
	page=$(basename "$f" .8)
	n=$((n + 1))
	w=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$f" 2>&1 >/dev/null)
	[ -z "$w" ] || bad "man --warnings $page.8: $w"
	[ -f "$T/$page.txt" ] || render "$f" >"$T/$page.txt"
	synopsis "$T/$page.txt" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$T/synopts"
	touch "$T/$page.opts"
	while read -r o; do
		grep -qx -- "$o" "$T/$page.opts" || grep -qx -- "$o" "$T/global" ||
			bad "$page(8) SYNOPSIS has '$o', which no command of the page has"
	done <"$T/synopts"
done
echo "$n commands and pages checked"
exit $fail

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Progress on long work (issue 27, cmd/progress.c): on a terminal, one line
# on stderr rewritten in place ("\r...\033[K") and erased at the end; in a
# pipe, nothing.  Runs on the sample host cx5-ofed with stderr on a real
# pseudo-terminal (script(1)) and then on a pipe:
#   - snapshot: "snapshot: functions captured", up to 100%;
# The snapshot is the same either way.  The CR-space dumps (dbg mstdump -o,
# dump-me-now's three) draw the same line through the same code, but only
# on a live device: the sample hosts have no CR space, so they are not
# exercised here.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need script

# on_tty NAME CMD...: run CMD with stdin, stdout and stderr on a
# pseudo-terminal; the terminal's bytes go to $tmp/NAME.tty
on_tty() {
	name=$1
	shift
	script -qfec "$*" "$tmp/$name.tty" >/dev/null 2>&1 </dev/null
}

# shows NAME TEXT: the terminal saw TEXT rewritten in place and then erased
shows() {
	grep -q "$(printf '\r')$2" "$tmp/$1.tty" &&
		tail -c 400 "$tmp/$1.tty" | tr -d '\n' | grep -q "$(printf '\r\033')\[K"
}

# snapshot
on_tty snap "'$MLXCLI' --sample=cx5-ofed snapshot '$tmp/s1' >'$tmp/s1.out'"
rc=$?
[ $rc -eq 0 ] && shows snap 'snapshot: functions captured: 100% ([0-9]* of [0-9]*)' &&
	ok "snapshot on a terminal: a progress line up to 100%, erased" ||
	bad "snapshot on a terminal: exit $rc: $(cat -v "$tmp/snap.tty")"
"$MLXCLI" --sample=cx5-ofed snapshot "$tmp/s2" >"$tmp/s2.out" 2>"$tmp/s2.err"
rc=$?
[ $rc -eq 0 ] && ! grep -q 'functions captured' "$tmp/s2.err" &&
	ok "snapshot in a pipe: no progress" || bad "snapshot in a pipe: exit $rc: $(cat -v "$tmp/s2.err")"
# the same files and links either way (the metadata holds the time)
(cd "$tmp/s1" && find . ! -name mlxcli-snapshot.json -printf '%P %y %s\n' | sort) >"$tmp/l1"
(cd "$tmp/s2" && find . ! -name mlxcli-snapshot.json -printf '%P %y %s\n' | sort) >"$tmp/l2"
[ -s "$tmp/l1" ] && cmp -s "$tmp/l1" "$tmp/l2" && ok "the same snapshot with and without a terminal" ||
	bad "the snapshots differ: $(diff "$tmp/l1" "$tmp/l2" | head -5)"

finish

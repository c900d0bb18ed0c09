#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Progress on long work (issue 27, cmd/progress.c): on a terminal, one line
# on stderr rewritten in place ("\r...\033[K") and erased at the end; in a
# pipe, nothing.  Runs on the sample host cx5-ofed with stderr on a real
# pseudo-terminal (script(1)) and then on a pipe:
#   - snapshot: "snapshot: functions captured", up to 100%;
#   - apply of every port's state (both ports of cx5-ofed, every subsystem:
#     14 steps): "apply: planned" and "apply: written", each up to 100%,
#     erased before the result; the same stdout and the same host after
#     it either way;
# The snapshot is the same either way.  The CR-space dumps (dbg mstdump -o,
# dump-me-now's three) draw the same line through the same code, but only
# on a live device: the sample hosts have no CR space, so they are not
# exercised here.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need script jq

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

# apply: a state with a change (one PFC priority) on a working copy of
# cx5-ofed, on a terminal and in a pipe
fresh a1 cx5-ofed
fresh a2 cx5-ofed
"$MLXCLI" --sysroot "$tmp/a1" -j state | jq '.ports[1].pfc.enabled_priorities = [3]' >"$tmp/want.json"
on_tty ap "'$MLXCLI' --sysroot '$tmp/a1' apply '$tmp/want.json' >'$tmp/ap1.out'"
rc=$?
[ $rc -eq 0 ] && shows ap 'apply: planned: 100% ([0-9]* of [0-9]*)' &&
	shows ap 'apply: written: 100% ([0-9]* of [0-9]*)' &&
	ok "apply on a terminal: planned and written up to 100%, erased" ||
	bad "apply on a terminal: exit $rc: $(cat -v "$tmp/ap.tty" | tail -3)"
"$MLXCLI" --sysroot "$tmp/a2" apply "$tmp/want.json" >"$tmp/ap2.out" 2>"$tmp/ap2.err"
rc=$?
[ $rc -eq 0 ] && ! grep -q 'apply: ' "$tmp/ap2.err" && ok "apply in a pipe: no progress" ||
	bad "apply in a pipe: exit $rc: $(cat -v "$tmp/ap2.err")"
tr -d '\r' <"$tmp/ap1.out" >"$tmp/ap1.txt"
grep -q 'pfc' "$tmp/ap2.out" && cmp -s "$tmp/ap1.txt" "$tmp/ap2.out" &&
	[ "$(tree_sum "$tmp/a1")" = "$(tree_sum "$tmp/a2")" ] &&
	ok "apply: the same result and the same host with and without a terminal" ||
	bad "apply differs: $(diff "$tmp/ap1.txt" "$tmp/ap2.out" | head -5)"

finish

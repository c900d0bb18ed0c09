#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The write engine's lock comes before its read of the old values (issue
# 14 point 2: `sriov set` read numvfs before it locked).  We hold the
# device lock of a sample working copy with flock(1); a writer started
# then waits for it; meanwhile another writer, with a lock of its own (a
# second runtime directory: the locks of a capture live there), changes
# the same value.  When we let go, the first writer must report as old
# the value it replaced, the one the other writer left, not the one it
# saw before it waited.  Then (issue 26): a question at the terminal comes
# before the lock, and `dbg restart`, an action, waits for it like any
# write and says what it did as a change record.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq flock

S=--sample=cx5-ofed
PF=0000:5e:00.0
P0=enp94s0f0np0
RUN1=$tmp/run1 RUN2=$tmp/run2
mkdir -m 0700 "$RUN1" "$RUN2"

# wait_blocked FILE: give a writer time to reach the lock (it has
# nothing on stdout until it has it).
wait_blocked() { sleep 1; [ ! -s "$1" ]; }

# hold FILE: hold the lock FILE in the background until release (not for
# a time: under valgrind the other writer may take seconds).
hold() {
	rm -f "$tmp/release"
	flock "$1" sh -c 'while [ ! -e "$0" ]; do sleep 0.1; done' "$tmp/release" & holder=$!
	sleep 0.3
}
release() { : >"$tmp/release"; wait $holder; }

# ---- sriov set numvfs: 4 now; another writer makes it 1 while we wait
XDG_RUNTIME_DIR=$RUN1 "$MLXCLI" $S sriov set -d $PF numvfs 4 >/dev/null || bad "numvfs 4 (same count)"
lock=$(ls "$RUN1"/mlxcli/*-$PF.lock 2>/dev/null | head -1)
[ -n "$lock" ] || { bad "no lock file of $PF in $RUN1/mlxcli"; finish; }
hold "$lock"
XDG_RUNTIME_DIR=$RUN1 "$MLXCLI" $S -j sriov set -d $PF numvfs 2 --yes >"$tmp/a.json" 2>"$tmp/a.err" &
writer=$!
wait_blocked "$tmp/a.json" || bad "the writer did not wait for the lock"
XDG_RUNTIME_DIR=$RUN2 "$MLXCLI" $S sriov set -d $PF numvfs 1 --yes >/dev/null 2>&1 ||
	bad "the other writer (numvfs 1)"
release
wait $writer || bad "the waiting writer failed: $(cat "$tmp/a.err")"
got=$(jq -c '[.changes[0].setting, .changes[0].old, .changes[0].new, (.vfs_lost | length)]' "$tmp/a.json")
[ "$got" = '["numvfs",1,2,1]' ] && ok "numvfs: old is what the lock protected (1), one VF reset" ||
	bad "numvfs: got $got, want [\"numvfs\",1,2,1] (old read before the lock?)"
[ "$("$MLXCLI" $S -j sriov show -d $PF | jq '.pfs[0].num_vfs')" = 2 ] && ok "numvfs is 2 at the end" ||
	bad "numvfs at the end: $("$MLXCLI" $S -j sriov show -d $PF | jq '.pfs[0].num_vfs')"

# ---- sriov vf set: VF 0's VLAN, changed by the other writer meanwhile
hold "$lock"
XDG_RUNTIME_DIR=$RUN1 "$MLXCLI" $S -j sriov vf -d $PF 0 set vlan 30 >"$tmp/v.json" 2>"$tmp/v.err" &
writer=$!
wait_blocked "$tmp/v.json" || bad "the VF writer did not wait for the lock"
XDG_RUNTIME_DIR=$RUN2 "$MLXCLI" $S sriov vf -d $PF 0 set vlan 20 >/dev/null 2>&1 || bad "the other VF writer"
release
wait $writer || bad "the waiting VF writer failed: $(cat "$tmp/v.err")"
got=$(jq -c '[.changes[] | select(.setting == "vlan") | .old, .new]' "$tmp/v.json")
[ "$got" = '[20,30]' ] && ok "vf vlan: old is 20, what the other writer left" || bad "vf vlan: got $got"

# ---- dcqcn set, the same way
lock0=$lock
hold "$lock0"
XDG_RUNTIME_DIR=$RUN1 "$MLXCLI" $S -j qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 9 >"$tmp/d.json" 2>"$tmp/d.err" &
writer=$!
wait_blocked "$tmp/d.json" || bad "the DCQCN writer did not wait for the lock"
XDG_RUNTIME_DIR=$RUN2 "$MLXCLI" $S qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 7 >/dev/null 2>&1 ||
	bad "the other DCQCN writer"
release
wait $writer || bad "the waiting DCQCN writer failed: $(cat "$tmp/d.err")"
got=$(jq -c '[.changes[0].old, .changes[0].new]' "$tmp/d.json")
[ "$got" = '[7,9]' ] && ok "dcqcn: old is 7, what the other writer left" || bad "dcqcn: got $got"

# ---- no question while a lock is held (issue 26 item 4): numvfs 2 -> 1
# asks from its plan, before it locks, so a terminal's "n" ends it while
# another writer holds the lock (it used to ask under the lock: it waited)
if command -v script >/dev/null 2>&1; then
	hold "$lock"
	echo n | XDG_RUNTIME_DIR=$RUN1 timeout 10 script -qc "$MLXCLI $S sriov set -d $PF numvfs 1" \
		/dev/null >"$tmp/q.out" 2>&1
	rc=$?
	release
	[ $rc -ne 124 ] && grep -q 'go ahead? \[y/N\]' "$tmp/q.out" && grep -q 'not confirmed' "$tmp/q.out" &&
		ok "numvfs: the question comes before the lock" ||
		bad "numvfs: the question waited for the lock (exit $rc): $(cat "$tmp/q.out")"
else
	echo "  skipped: the terminal case needs script(1)"
fi

# ---- dbg restart: an action, through the same engine (issue 26 item 6):
# it waits for the device's lock and says what it did as a change record
hold "$lock0"
XDG_RUNTIME_DIR=$RUN1 "$MLXCLI" $S -j dbg restart $P0 --yes >"$tmp/r.json" 2>"$tmp/r.err" &
writer=$!
wait_blocked "$tmp/r.json" && ok "dbg restart waits for the device lock" ||
	bad "dbg restart did not wait for the lock"
release
wait $writer || bad "the waiting restart failed: $(cat "$tmp/r.err")"
got=$(jq -c '[.netdev, .changes[0].setting, .changes[0].new]' "$tmp/r.json")
[ "$got" = "[\"$P0\",\"link\",\"restart\"]" ] && ok "dbg restart: its change record" ||
	bad "dbg restart: got $got"

finish

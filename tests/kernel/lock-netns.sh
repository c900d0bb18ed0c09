#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The live system's device locks (issue 29 item 3): as nobody, `flock
# /run/lock/mlxcli-DEV.lock sleep 600` hung root's writes with no message
# and no end.  Now, on a veth of a private namespace (params set
# --any-netdev takes the netdev's lock):
#   - the lock is /run/mlxcli/DEV.lock: the directory root's, 0755; the
#     file root's, 0600; nobody can neither open it nor create one there;
#   - nobody holding the old /run/lock file does not delay root's write;
#   - a write that waits says so, with the holder's PID, and gives up after
#     --wait SEC: exit 1, the PID named, nothing changed;
#   - --wait 0 does not wait; once the holder lets go, the write goes on.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
. "$(dirname "$0")/lib.sh"
need_root
need jq flock setpriv
need_no_connectx
make_netns mlxcli-lock
dev=hlk$$
make_veth "$dev" "${dev}p"
mtu_of() { nsx ip -j link show "$dev" | jq '.[0].mtu'; }
priv_setup
on_exit="rm -f /run/mlxcli/$dev.lock /run/lock/mlxcli-$dev.lock; $on_exit"

nsx "$MLXCLI" params set --any-netdev -d "$dev" mtu=1400 >"$tmp/a.out" 2>"$tmp/a.err"
check "root's write: exit 0, the MTU" "$? $(mtu_of)" "0 1400"
check "the lock directory: root's, 0755" "$(stat -c '%u %a %F' /run/mlxcli)" "0 755 directory"
check "the lock file: root's, 0600" "$(stat -c '%u %a %F' "/run/mlxcli/$dev.lock")" "0 600 regular empty file"
as_nobody flock -n "/run/mlxcli/$dev.lock" true 2>/dev/null
[ $? -ne 0 ] && ok "nobody cannot open (so cannot hold) the lock" || bad "nobody took the lock"
as_nobody sh -c ": >/run/mlxcli/x-$$.lock" 2>/dev/null
[ $? -ne 0 ] && [ ! -e "/run/mlxcli/x-$$.lock" ] && ok "nobody cannot create a lock file there" ||
	{ bad "nobody created /run/mlxcli/x-$$.lock"; rm -f "/run/mlxcli/x-$$.lock"; }

# the old attack: nobody holds the lock file of before; root's write is not delayed
if [ -d /run/lock ]; then
	# (held 8 s, then let go: killing the wrapper left flock and its
	# sleep running as nobody for a minute after the test)
	as_nobody flock "/run/lock/mlxcli-$dev.lock" sleep 8 2>/dev/null &
	attacker=$!
	sleep 0.3
	start=$(date +%s)
	nsx "$MLXCLI" params set --any-netdev -d "$dev" mtu=1450 --wait 5 >"$tmp/b.out" 2>"$tmp/b.err"
	check "root's write while nobody holds /run/lock/mlxcli-$dev.lock: exit, MTU" "$? $(mtu_of)" "0 1450"
	[ $(($(date +%s) - start)) -le 3 ] && ok "not delayed" || bad "delayed $(($(date +%s) - start)) s"
	wait "$attacker" 2>/dev/null
	rm -f "/run/lock/mlxcli-$dev.lock"
fi

# a holder (root) that does not let go: the writer says so, then gives up
flock "/run/mlxcli/$dev.lock" sh -c 'while [ ! -e "$0" ]; do sleep 0.1; done' "$tmp/release" &
holder=$!
sleep 0.3
start=$(date +%s)
nsx "$MLXCLI" params set --any-netdev -d "$dev" mtu=1500 --wait 2 >"$tmp/c.out" 2>"$tmp/c.err"
rc=$?
took=$(($(date +%s) - start))
check "a held lock, --wait 2: exit" "$rc" 1
[ "$took" -ge 2 ] && [ "$took" -le 6 ] && ok "gave up after ${took} s" || bad "gave up after ${took} s"
grep -q "waiting for up to 2 s for the lock of $dev, held by PID $holder" "$tmp/c.err" &&
	ok "it said it waits, and for whom" || bad "no waiting message with PID $holder: $(cat "$tmp/c.err")"
grep -q "cannot lock $dev: PID $holder has held its lock for 2 s; nothing was changed" "$tmp/c.err" &&
	ok "the failure names the holder" || bad "the failure: $(cat "$tmp/c.err")"
check "nothing changed" "$(mtu_of)" 1450
start=$(date +%s)
nsx "$MLXCLI" params set --any-netdev -d "$dev" mtu=1500 --wait 0 >/dev/null 2>"$tmp/d.err"
check "--wait 0: exit at once" "$? $(($(date +%s) - start <= 1))" "1 1"
# the writer that waits gets the lock when the holder lets go
nsx "$MLXCLI" params set --any-netdev -d "$dev" mtu=1500 >/dev/null 2>"$tmp/e.err" &
writer=$!
sleep 1
: >"$tmp/release"
wait $holder
wait $writer
check "after the holder let go: exit, MTU" "$? $(mtu_of)" "0 1500"
# a bad --wait is a usage error
"$MLXCLI" --wait x devices >/dev/null 2>"$tmp/f.err"
check "--wait x: exit 2" "$?" 2
finish
